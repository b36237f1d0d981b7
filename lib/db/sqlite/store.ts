/**
 * The SQLite store (the default DATABASE_URL, a file): Prisma through the better-sqlite3 driver
 * adapter, migrated synchronously before first use, and the task writer's own connection for the
 * hot path and the tables beside it (writer.ts says why). Each part opens when first used, so
 * a command that only needs Prisma (npm run keys) starts no writer or checkpointer.
 */
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaClient } from '../generated/client';
import { sqliteFilePath } from './path';
import { applyMigrations } from './migrate';
import { SqliteTaskWriter } from './writer';
import { SqliteTaskReader } from './reader';
import { SingleMember } from './single-member';
import { sqliteNotifications, sqlitePushDeliveries } from './outboxes';
import { sqliteLaunchedGroups, sqliteLauncherSessions } from './launches';
import { sqliteWindowCounter } from './window-counters';
import { sqliteTextSearch } from './task-search';
import { countingAdapterFactory, queryLogEnabled } from '../query-counter';
import type { Db, Store } from '../store';
import type { PruneStatement } from '../prune-batches';

export function createDb(databaseUrl: string): Db {
  const file = sqliteFilePath(databaseUrl);
  applyMigrations(file);
  const adapter = new PrismaBetterSqlite3({ url: file, timeout: 10_000 });
  return new PrismaClient({ adapter: queryLogEnabled() ? countingAdapterFactory(adapter) : adapter });
}

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  private db: Db | null = null;
  private taskWriter: SqliteTaskWriter | null = null;
  private taskReader: SqliteTaskReader | null = null;
  private readonly conn = () => this.writer.conn;
  readonly pushDeliveries = sqlitePushDeliveries(this.conn);
  readonly notifications = sqliteNotifications(this.conn);
  readonly launchedGroups = sqliteLaunchedGroups(this.conn);
  readonly launcherSessions = sqliteLauncherSessions(this.conn);
  readonly membership = new SingleMember(() => this.prisma);
  readonly windowCounter = sqliteWindowCounter;
  readonly textSearch = sqliteTextSearch(() => this.prisma);

  constructor(private readonly databaseUrl: string) {}

  /** Migrated synchronously when the client is made. */
  get ready(): Promise<void> {
    void this.prisma;
    return Promise.resolve();
  }

  get prisma(): Db {
    return (this.db ??= createDb(this.databaseUrl));
  }

  get writer(): SqliteTaskWriter {
    void this.prisma; // migrations first
    return (this.taskWriter ??= new SqliteTaskWriter(sqliteFilePath(this.databaseUrl)));
  }

  /** The engine's hot-path reads, on the writer's connection (reader.ts). */
  get reader(): SqliteTaskReader {
    return (this.taskReader ??= new SqliteTaskReader(this.writer.conn));
  }

  async deleteBatch(statement: PruneStatement, values: unknown[]): Promise<number> {
    return this.writer.conn.prepare(statement.sqlite).run(...values).changes;
  }

  /** SQLite's LIKE ignores ASCII case already; searches go through textSearch, which escapes. */
  textContains(search: string) {
    return { contains: search };
  }

  sqlParam(): string {
    return '?';
  }

  /** One writer, no shards: nothing to fold; the empty hourly rows go (store.ts). */
  async foldTaskTallies(emptyRows: number): Promise<void> {
    this.writer.conn.prepare(DROP_EMPTY_HOURS).run(emptyRows);
  }
}

/** Hourly tally rows at zero, a batch at a time (a WITHOUT ROWID table: matched by its key). */
const DROP_EMPTY_HOURS = `DELETE FROM "_task_tally_hour" WHERE ("hour", "direction", "agent", "peer", "state", "detached") IN (
  SELECT "hour", "direction", "agent", "peer", "state", "detached" FROM "_task_tally_hour" WHERE "count" = 0 LIMIT ?)`;

export const createSqliteStore = (databaseUrl: string): SqliteStore => new SqliteStore(databaseUrl);
