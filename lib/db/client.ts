/**
 * The store for the configured DATABASE_URL: SQLite (the default, through the better-sqlite3
 * driver adapter) or PostgreSQL (a postgres:// URL; pg-store.ts). Only lib/db imports it;
 * everything else calls the repository functions, so the provider changes without touching
 * callers. Both Prisma clients are generated from prisma/schema.prisma and expose the same
 * model API, so callers are typed against the SQLite one.
 */
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaClient } from './generated/client';
import { processSingleton } from '../process-singleton';
import { getSettings } from '../config/settings';
import { sqliteFilePath } from './sqlite-path';
import { applyMigrations } from './migrate';
import { SqliteTaskWriter } from './sqlite-writer';
import { SqliteTaskReader } from './sqlite-reader';
import { countingAdapterFactory, queryLogEnabled } from './query-counter';
import { storeKind, type StoreKind } from './store-kind';
import { createPgStore, type PgStore } from './pg-store';
import type { TaskReader, TaskWriter } from './task-store';
import type pg from 'pg';
import { named } from './pg-pool';

export type Db = InstanceType<typeof PrismaClient>;

export function createDb(databaseUrl: string): Db {
  const file = sqliteFilePath(databaseUrl);
  applyMigrations(file);
  const adapter = new PrismaBetterSqlite3({ url: file, timeout: 10_000 });
  return new PrismaClient({ adapter: queryLogEnabled() ? countingAdapterFactory(adapter) : adapter });
}

/** The configured store's kind. */
export function currentStore(): StoreKind {
  return storeKind(getSettings().databaseUrl);
}

/** The process-wide PostgreSQL store (only when DATABASE_URL is a postgres:// URL). */
export function pgStore(): PgStore {
  if (currentStore() !== 'postgresql') throw new Error('pgStore(): DATABASE_URL is not a PostgreSQL URL');
  return processSingleton('pg-store', () => createPgStore(getSettings().databaseUrl));
}

/** The process-wide Prisma client for the configured DATABASE_URL, migrated before first use. */
export function db(): Db {
  return processSingleton('db', () => (currentStore() === 'postgresql' ? (pgStore().prisma as unknown as Db) : createDb(getSettings().databaseUrl)));
}

/** Resolves once the store is migrated and usable (SQLite migrates synchronously in db()). */
export async function storeReady(): Promise<void> {
  db();
  if (currentStore() === 'postgresql') await pgStore().ready;
}

/** The SQLite task writer (its connection, cache and checkpointer), for SQLite-only callers. */
export function sqliteTaskWriter(): SqliteTaskWriter {
  return processSingleton('task-writer', () => {
    db(); // migrations first
    return new SqliteTaskWriter(sqliteFilePath(getSettings().databaseUrl));
  });
}

/** The process-wide task writer (hot-path writes; see task-store.ts). */
export function taskWriter(): TaskWriter {
  return processSingleton<TaskWriter>('any-task-writer', () => (currentStore() === 'postgresql' ? pgStore().writer : sqliteTaskWriter()));
}

/** The engine's hot-path reads (on SQLite, on the writer's connection: sqlite-reader.ts). */
export function taskReader(): TaskReader {
  return processSingleton('task-reader', () => (currentStore() === 'postgresql' ? pgStore().reader : new SqliteTaskReader(sqliteTaskWriter().conn)));
}

/** One named statement on the PostgreSQL pool, after the migrations (repos beside the task store). */
export async function pgQuery<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
  const store = pgStore();
  await store.ready;
  return store.pool.query<R>(named(text, values));
}
