/**
 * Applies the committed PostgreSQL migrations (prisma/migrations-postgresql), in name order,
 * each once and in its own transaction, like migrate.ts does for SQLite. An advisory lock
 * serialises instances that start at the same time on one database; every other DDL a start
 * runs (the cluster's lease tables, leases.ts) takes the same lock (withMigrationLock).
 */
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { pendingMigrations } from '../sqlite/migrate';
import { log } from '../../log';

/** Any constant: the key of the advisory lock held while migrating. */
const MIGRATION_LOCK = 0x5b_0a_2d_01;

export function pgMigrationsDir(): string {
  return path.resolve(process.cwd(), 'prisma/migrations-postgresql');
}

/**
 * Runs `work` on one connection while holding the migration lock. Schema changes at start go
 * through it: two concurrent `CREATE TABLE IF NOT EXISTS` of one table can both miss it and the
 * second fail with 23505 (unique violation on pg_type), so "if not exists" alone is no guard.
 */
export async function withMigrationLock<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    return await work(client);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
}

export function applyPgMigrations(pool: pg.Pool, dir: string = pgMigrationsDir()): Promise<string[]> {
  return withMigrationLock(pool, async (client) => {
    await client.query('CREATE TABLE IF NOT EXISTS "_switchboard_migrations" (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
    const done = new Set((await client.query<{ name: string }>('SELECT name FROM "_switchboard_migrations"')).rows.map((r) => r.name));
    const pending = pendingMigrations(dir, done);
    for (const name of pending) {
      const sql = fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO "_switchboard_migrations" (name, applied_at) VALUES ($1, $2)', [name, new Date().toISOString()]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      }
      log.info('database migration applied', { migration: name, store: 'postgresql' });
    }
    return pending;
  });
}
