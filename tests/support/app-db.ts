/** Reads an app's database directly (SQLite file or PostgreSQL), to check what is stored at rest. */
import Database from 'better-sqlite3';
import pg from 'pg';
import type { AppServer } from './app-server';

export async function queryAppDb<T>(server: AppServer, sql: string): Promise<T[]> {
  const url = server.env.DATABASE_URL;
  if (url.startsWith('file:')) {
    const db = new Database(url.slice('file:'.length), { readonly: true });
    try {
      return db.prepare(sql).all() as T[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}
