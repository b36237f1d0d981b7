/**
 * The Prisma client (SQLite through the better-sqlite3 driver adapter). Only lib/db imports it;
 * everything else calls the repository functions, so the provider can change without touching
 * callers.
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

export type Db = InstanceType<typeof PrismaClient>;

export function createDb(databaseUrl: string): Db {
  const file = sqliteFilePath(databaseUrl);
  applyMigrations(file);
  const adapter = new PrismaBetterSqlite3({ url: file, timeout: 10_000 });
  return new PrismaClient({ adapter: queryLogEnabled() ? countingAdapterFactory(adapter) : adapter });
}

/** The process-wide client for the configured DATABASE_URL, migrated on first use. */
export function db(): Db {
  return processSingleton('db', () => createDb(getSettings().databaseUrl));
}

/** The process-wide task writer (hot-path writes; see sqlite-writer.ts). */
export function taskWriter(): SqliteTaskWriter {
  return processSingleton('task-writer', () => {
    db(); // migrations first
    return new SqliteTaskWriter(sqliteFilePath(getSettings().databaseUrl));
  });
}

/** The engine's hot-path reads, on the writer's connection (see sqlite-reader.ts). */
export function taskReader(): SqliteTaskReader {
  return processSingleton('task-reader', () => new SqliteTaskReader(taskWriter().conn));
}
