/**
 * Applies the committed SQL migrations in prisma/migrations, in name order, each once, inside a
 * transaction, after preparing the file's permissions (file-modes.ts). We apply them ourselves because the Prisma CLI's schema engine is a binary
 * download this machine cannot make (docs/decisions.md). Also turns on WAL, which persists in
 * the database file.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { log } from '../../log';
import { prepareDatabaseFile } from '../file-modes';

export function migrationsDir(): string {
  return path.resolve(process.cwd(), 'prisma/migrations');
}

/** Migration folders in `dir` not yet in `done`, in the order they apply (name order). */
export function pendingMigrations(dir: string, done: ReadonlySet<string>): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !done.has(d.name))
    .map((d) => d.name)
    .sort();
}

export function applyMigrations(file: string, dir: string = migrationsDir()): string[] {
  prepareDatabaseFile(file);
  const conn = new Database(file);
  try {
    conn.pragma('journal_mode = WAL');
    conn.exec(
      'CREATE TABLE IF NOT EXISTS "_switchboard_migrations" (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)',
    );
    const done = new Set(
      conn.prepare('SELECT name FROM "_switchboard_migrations"').all().map((r) => (r as { name: string }).name),
    );
    const pending = pendingMigrations(dir, done);
    for (const name of pending) {
      const sql = fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      conn.transaction(() => {
        conn.exec(sql);
        conn.prepare('INSERT INTO "_switchboard_migrations" (name, applied_at) VALUES (?, ?)').run(name, new Date().toISOString());
      })();
      log.info('database migration applied', { migration: name, file });
    }
    return pending;
  } finally {
    conn.close();
  }
}
