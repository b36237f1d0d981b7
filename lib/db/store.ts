/**
 * The Store port: everything the app keeps in its database, as one interface with one
 * implementation per provider (lib/db/sqlite/, lib/db/postgres/), chosen once, by the configured
 * DATABASE_URL, the first time `store()` is called. Repositories (lib/db/*-repo.ts) and the
 * engine ask the port; only the two implementations know which database they run on, so no code
 * outside them branches on the provider. Where the providers differ in what they do, not only in
 * their SQL (several instances share a PostgreSQL; a SQLite file has one), the difference is an
 * operation of the port: `membership` (the single member or the leased cluster member).
 *
 * Where a new table goes: its record type and repository functions in lib/db/<name>-repo.ts,
 * written against a small interface declared here (a member of Store), and that interface's two
 * implementations, lib/db/sqlite/<name>.ts and lib/db/postgres/<name>.ts, wired in each
 * provider's store.ts. Tables read and written only through Prisma need none of this: `prisma`
 * is the same model API on both. A new task column: lib/db/task-columns.ts.
 */
import { getSettings } from '../config/settings';
import { appPart } from '../process-singleton';
import { storeKind, type StoreKind } from './store-kind';
import { createSqliteStore } from './sqlite/store';
import { createPostgresStore } from './postgres/store';
import type { PrismaClient } from './generated/client';
import type { TaskReader, TaskWriter } from './task-store';
import type { PushDeliveryRecord, PushOutcome } from './outbox-rows';
import type { AttemptOutcome, DeliveryRecord } from './outbox-rows';
import type { NewDelivery } from './change-outbox';
import type { LaunchedGroupRow, SessionRowKey } from './launch-rows';
import type { PruneStatement } from './prune-batches';
import type { Membership } from './membership';
import type { MaybeAsync } from '../util/maybe-async';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RawTaskRow } from './task-store';
import type { TaskListFilter } from './task-repo';
import type { StateCounts } from './state-counts';

/** Both Prisma clients are generated from prisma/schema.prisma and expose the same model API. */
export type Db = InstanceType<typeof PrismaClient>;

/**
 * The push-delivery outbox (table PushDelivery). Rows are written in the transaction of the task
 * change that causes them (change-outbox.ts); the sender (lib/push/push-delivery.ts) reads them
 * here. `owner` limits a shared database to this instance's rows; only the oldest pending row of
 * each config is due, so a config's deliveries go out in seq order.
 */
export interface PushDeliveryOutbox {
  due(owner: string, now: Date, limit: number): MaybeAsync<PushDeliveryRecord[]>;
  nextDue(owner: string): MaybeAsync<Date | null>;
  startAttempt(d: PushDeliveryRecord, owner: string, now: Date): MaybeAsync<number | null>;
  recordOutcome(d: PushDeliveryRecord, owner: string, outcome: PushOutcome, now: Date): MaybeAsync<boolean>;
}

/** The notification outbox (table NotificationDelivery; lib/notify sends it), owned per row as the push outbox is. */
export interface NotificationOutbox {
  enqueue(d: NewDelivery, now: Date): MaybeAsync<boolean>;
  due(owner: string, now: Date, limit: number): MaybeAsync<DeliveryRecord[]>;
  nextDue(owner: string): MaybeAsync<Date | null>;
  startAttempt(id: string, owner: string, now: Date): MaybeAsync<number | null>;
  recordAttempt(id: string, owner: string, outcome: AttemptOutcome): MaybeAsync<boolean>;
  byTask(taskId: string): MaybeAsync<DeliveryRecord[]>;
}

/** The process groups launchers started (launched-group-repo.ts). */
export interface LaunchedGroupLedger {
  add(r: LaunchedGroupRow): void | Promise<void>;
  remove(r: LaunchedGroupRow): void | Promise<void>;
  list(): LaunchedGroupRow[] | Promise<LaunchedGroupRow[]>;
}

/** A `process` launcher's agent sessions, at most `capacity` per agent (launcher-session-repo.ts). */
export interface LauncherSessions {
  get(key: SessionRowKey): Promise<{ sessionId?: string } | undefined>;
  set(key: SessionRowKey, session: { sessionId?: string }): Promise<void>;
}

export interface Store {
  /** Which database, for logs and the health endpoint only: behaviour differs through the operations below. */
  readonly kind: StoreKind;
  /** Settles once the store is migrated and usable (rejects if the migrations failed). */
  readonly ready: Promise<void>;
  /** The Prisma client (the tables beside the task hot path). */
  readonly prisma: Db;
  /** The task write path (group-committed; task-store.ts). */
  readonly writer: TaskWriter;
  /** The engine's hot-path reads. */
  readonly reader: TaskReader;
  readonly pushDeliveries: PushDeliveryOutbox;
  readonly notifications: NotificationOutbox;
  readonly launchedGroups: LaunchedGroupLedger;
  launcherSessions(capacity: number): LauncherSessions;
  /** One bounded DELETE of a prune (prune-batches.ts): the rows it deleted. */
  deleteBatch(statement: PruneStatement, values: unknown[]): Promise<number>;
  /**
   * A Prisma filter matching text that contains `search` (`%`, `_` and `\` as themselves),
   * ignoring ASCII case on both providers.
   */
  textContains(search: string): { contains: string; mode?: 'insensitive' };
  /**
   * A text search of the store's own, where Prisma's filter would read every task (SQLite:
   * sqlite/task-search.ts); null where textContains is served by indexes (PostgreSQL's pg_trgm).
   */
  readonly textSearch: TaskTextSearch | null;
  /** The n-th (from 1) parameter of a raw statement: `?` on SQLite, `$n` on PostgreSQL. */
  sqlParam(n: number): string;
  /**
   * Folds the task tallies' per-writer rows into one per key (PostgreSQL), and drops hourly
   * tally rows that count nothing (their tasks ended in another state or were pruned), a
   * batch of at most `emptyRows` a run, so the table does not grow with the hours a hub is up.
   */
  foldTaskTallies(emptyRows: number): Promise<void>;
  /** How this instance relates to the others on the database (membership.ts). */
  readonly membership: Membership;
  /** A fixed-window counter (the per-caller quotas): shared by every instance on the database. */
  windowCounter(options: WindowCounterOptions): Promise<RateLimiterAbstract>;
}

/** A text search over the task list (`f.search` set): one page (`limit + 1` rows) or the counts. */
export interface TaskTextSearch {
  rows(f: TaskListFilter & { search: string }): Promise<RawTaskRow[]>;
  stateCounts(f: Omit<TaskListFilter, 'limit' | 'cursor'> & { search: string }): Promise<StateCounts>;
}

/** rate-limiter-flexible's options: the key prefix, the most a window may count, its seconds. */
export interface WindowCounterOptions {
  keyPrefix: string;
  points: number;
  duration: number;
}

/** The store for a DATABASE_URL (the composition root opens the app's). */
export function openStore(url: string): Store {
  return storeKind(url) === 'postgresql' ? createPostgresStore(url) : createSqliteStore(url);
}

/** The app's store, chosen once by DATABASE_URL: it holds the database connections. */
export function store(): Store {
  return appPart('store', () => openStore(getSettings().databaseUrl));
}

declare module '../process-singleton' {
  interface AppParts {
    /** The store (its database connections). */
    store: Store;
  }
}
