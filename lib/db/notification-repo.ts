/**
 * The notification outbox (table NotificationDelivery). Rows are written in the transaction of
 * the task change that causes them (change-outbox.ts, planned by lib/notify); this is the rest:
 * on SQLite synchronous statements on the task writer's connection, on PostgreSQL the same
 * statements on the pool, so each function's result is a promise there; there, instances share
 * the outbox, so taking due deliveries claims them (see DUE_CLAIM_MS).
 */
import type Database from 'better-sqlite3';
import { currentStore, pgQuery, sqliteTaskWriter } from './client';
import { sqliteTime } from './sqlite-writer';
import { NOTIFICATION_INSERT_PG, NOTIFICATION_INSERT_SQLITE, notificationValues, type NewDelivery } from './change-outbox';

export type { NewDelivery };

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'refused';

export interface DeliveryAttempt {
  at: string;
  status?: number;
  error?: string;
}

export interface DeliveryRecord extends NewDelivery {
  state: DeliveryState;
  attempts: number;
  attemptLog: DeliveryAttempt[];
  nextAttemptAt: string;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

export interface AttemptOutcome {
  state: DeliveryState;
  attempts: number;
  attemptLog: DeliveryAttempt[];
  nextAttemptAt: Date;
  lastError: string | null;
  deliveredAt: Date | null;
}

type MaybeAsync<T> = T | Promise<T>;
type Row = Omit<DeliveryRecord, 'attemptLog'> & { attemptLog: string };

const toRecord = (r: Row): DeliveryRecord => ({ ...r, attemptLog: JSON.parse(r.attemptLog) as DeliveryAttempt[] });

const COLUMNS = '"id","taskId","rule","event","seq","url","format","payload","state","attempts","attemptLog","nextAttemptAt","lastError","createdAt","deliveredAt"';

const outcomeValues = (id: string, o: AttemptOutcome) => [o.state, o.attempts, JSON.stringify(o.attemptLog), sqliteTime(o.nextAttemptAt), o.lastError, o.deliveredAt ? sqliteTime(o.deliveredAt) : null, id];

function statements(conn: Database.Database) {
  return {
    insert: conn.prepare(NOTIFICATION_INSERT_SQLITE),
    due: conn.prepare(`SELECT ${COLUMNS} FROM "NotificationDelivery" WHERE "state" = 'pending' AND "nextAttemptAt" <= ? ORDER BY "nextAttemptAt" LIMIT ?`),
    nextDue: conn.prepare(`SELECT MIN("nextAttemptAt") AS "at" FROM "NotificationDelivery" WHERE "state" = 'pending'`),
    update: conn.prepare(
      `UPDATE "NotificationDelivery" SET "state"=?, "attempts"=?, "attemptLog"=?, "nextAttemptAt"=?, "lastError"=?, "deliveredAt"=? WHERE "id"=? AND "state"='pending'`,
    ),
    byTask: conn.prepare(`SELECT ${COLUMNS} FROM "NotificationDelivery" WHERE "taskId" = ? ORDER BY "createdAt", "id"`),
  };
}

let cached: { conn: Database.Database; stmts: ReturnType<typeof statements> } | null = null;

function stmts() {
  const conn = sqliteTaskWriter().conn;
  if (cached?.conn !== conn) cached = { conn, stmts: statements(conn) };
  return cached.stmts;
}

/**
 * How long a due delivery taken by one instance stays invisible to the others: longer than an
 * attempt (its request times out after 10 s), so one delivery is never sent by two at once; an
 * instance that dies mid-attempt leaves it to another after this.
 */
const DUE_CLAIM_MS = 60_000;

const PG = {
  insert: NOTIFICATION_INSERT_PG,
  claimDue: `WITH due AS (
      SELECT "id", "nextAttemptAt" AS "dueAt" FROM "NotificationDelivery" WHERE "state" = 'pending' AND "nextAttemptAt" <= $1
      ORDER BY "nextAttemptAt" LIMIT $2 FOR UPDATE SKIP LOCKED),
    claimed AS (UPDATE "NotificationDelivery" n SET "nextAttemptAt" = $3 FROM due WHERE n."id" = due."id" RETURNING n.*, due."dueAt")
    SELECT ${COLUMNS.replace('"nextAttemptAt"', '"dueAt" AS "nextAttemptAt"')} FROM claimed ORDER BY "dueAt"`,
  nextDue: `SELECT MIN("nextAttemptAt") AS "at" FROM "NotificationDelivery" WHERE "state" = 'pending'`,
  update: `UPDATE "NotificationDelivery" SET "state"=$1, "attempts"=$2, "attemptLog"=$3, "nextAttemptAt"=$4, "lastError"=$5, "deliveredAt"=$6 WHERE "id"=$7 AND "state"='pending'`,
  byTask: `SELECT ${COLUMNS} FROM "NotificationDelivery" WHERE "taskId" = $1 ORDER BY "createdAt", "id"`,
};

const onPg = () => currentStore() === 'postgresql';

/** Adds a delivery unless one with its id exists; true when it was new (outside a task change: tests, tools). */
export function enqueueDelivery(d: NewDelivery, now = new Date()): MaybeAsync<boolean> {
  const values = notificationValues(d, sqliteTime(now));
  if (onPg()) return pgQuery(PG.insert, values).then((r) => (r.rowCount ?? 0) > 0);
  return stmts().insert.run(...values).changes > 0;
}

/** Pending deliveries due at `now`; on PostgreSQL claimed for DUE_CLAIM_MS (in due order). */
export function dueDeliveries(now = new Date(), limit = 20): MaybeAsync<DeliveryRecord[]> {
  if (onPg()) {
    const claimedUntil = sqliteTime(new Date(now.getTime() + DUE_CLAIM_MS));
    return pgQuery<Row>(PG.claimDue, [sqliteTime(now), limit, claimedUntil]).then((r) => r.rows.map(toRecord));
  }
  return (stmts().due.all(sqliteTime(now), limit) as Row[]).map(toRecord);
}

/** When the next pending delivery is due, or null when none is pending. */
export function nextDeliveryDue(): MaybeAsync<Date | null> {
  const toDate = (row: { at: string | null } | undefined) => (row?.at ? new Date(row.at) : null);
  if (onPg()) return pgQuery<{ at: string | null }>(PG.nextDue).then((r) => toDate(r.rows[0]));
  return toDate(stmts().nextDue.get() as { at: string | null });
}

/** Writes an attempt's outcome; only a pending row changes, so a delivered one is final. */
export function recordDeliveryAttempt(id: string, o: AttemptOutcome): MaybeAsync<boolean> {
  const values = outcomeValues(id, o);
  if (onPg()) return pgQuery(PG.update, values).then((r) => (r.rowCount ?? 0) > 0);
  return stmts().update.run(...values).changes > 0;
}

export function listTaskDeliveries(taskId: string): MaybeAsync<DeliveryRecord[]> {
  if (onPg()) return pgQuery<Row>(PG.byTask, [taskId]).then((r) => r.rows.map(toRecord));
  return (stmts().byTask.all(taskId) as Row[]).map(toRecord);
}
