/**
 * Short ways into the store (store.ts) for lib/db's repositories, and the provider's own parts
 * for the tests and benchmarks that measure them. Only lib/db imports it; everything else calls
 * the repository functions, so the provider changes without touching callers.
 */
import { store, type Db } from './store';
import type { SqliteStore } from './sqlite/store';
import type { PgStore } from './postgres/store';
import type { SqliteTaskWriter } from './sqlite/writer';
import type { TaskReader, TaskWriter } from './task-store';
import type pg from 'pg';

export { store, type Db };
export { createDb } from './sqlite/store';

/** The process-wide Prisma client for the configured DATABASE_URL, migrated before first use. */
export function db(): Db {
  return store().prisma;
}

/** Resolves once the store is migrated and usable. */
export function storeReady(): Promise<void> {
  return store().ready;
}

/** The process-wide task writer (hot-path writes; see task-store.ts). */
export function taskWriter(): TaskWriter {
  return store().writer;
}

/** The engine's hot-path reads (on SQLite, on the writer's connection: sqlite/reader.ts). */
export function taskReader(): TaskReader {
  return store().reader;
}

/** Tests and benchmarks: the SQLite store's task writer (its connection, cache and checkpointer). */
export function sqliteTaskWriter(): SqliteTaskWriter {
  const s = store();
  if (s.kind !== 'sqlite') throw new Error('sqliteTaskWriter(): DATABASE_URL is not a SQLite file');
  return (s as SqliteStore).writer;
}

/** Tests and benchmarks: the PostgreSQL store (its pool). */
export function pgStore(): PgStore {
  const s = store();
  if (s.kind !== 'postgresql') throw new Error('pgStore(): DATABASE_URL is not a PostgreSQL URL');
  return s as PgStore;
}

/** Tests and benchmarks: one named statement on the PostgreSQL pool, after the migrations. */
export function pgQuery<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
  return pgStore().query<R>(text, values);
}
