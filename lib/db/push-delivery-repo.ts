/**
 * The push-delivery outbox (table PushDelivery, migration 0010). Rows are written in the
 * transaction of the task change that causes them (change-outbox.ts); this is what the sender
 * (lib/push/push-delivery.ts) does with them. A row belongs to one instance (`owner`): on
 * PostgreSQL an instance sends only its own rows, and every change of a row is a compare-and-set
 * on its owner, so a row another instance took over (pg-leases.ts) is never attempted here
 * again. On SQLite there is one instance: every row is its own, whatever name wrote it.
 * Deliveries of one config go out in seq order: only the oldest pending row of each is due.
 */
import type Database from 'better-sqlite3';
import { currentStore, pgQuery, sqliteTaskWriter } from './client';
import { sqliteTime } from './task-store';
import type { MaybeAsync } from '../util/maybe-async';

export interface PushDeliveryRecord {
  taskId: string;
  configId: string;
  seq: number;
  attempts: number;
  /** Set when an attempt was in flight and its outcome never recorded (its instance died). */
  attemptStartedAt: string | null;
}

export type PushOutcome = { state: 'delivered' } | { state: 'failed'; error: string } | { state: 'pending'; error: string; retryAt: Date };


const KEY = `"taskId" = ? AND "configId" = ? AND "seq" = ?`;
const SQLITE = {
  due: `SELECT d."taskId", d."configId", d."seq", d."attempts", d."attemptStartedAt" FROM "PushDelivery" d
    WHERE d."state" = 'pending' AND d."nextAttemptAt" <= ? AND NOT EXISTS (SELECT 1 FROM "PushDelivery" e
      WHERE e."taskId" = d."taskId" AND e."configId" = d."configId" AND e."state" = 'pending' AND e."seq" < d."seq")
    ORDER BY d."nextAttemptAt" LIMIT ?`,
  nextDue: `SELECT MIN("nextAttemptAt") AS "at" FROM "PushDelivery" WHERE "state" = 'pending'`,
  start: `UPDATE "PushDelivery" SET "attempts" = "attempts" + 1, "attemptStartedAt" = ? WHERE ${KEY} AND "state" = 'pending' RETURNING "attempts"`,
  outcome: `UPDATE "PushDelivery" SET "state" = ?, "nextAttemptAt" = ?, "lastError" = ?, "deliveredAt" = ?, "attemptStartedAt" = NULL
    WHERE ${KEY} AND "state" = 'pending'`,
};

/** The same statements on PostgreSQL, each limited to this instance's rows (the last parameter). */
const PG = {
  due: `SELECT d."taskId", d."configId", d."seq", d."attempts", d."attemptStartedAt" FROM "PushDelivery" d
    WHERE d."state" = 'pending' AND d."owner" = $3 AND d."nextAttemptAt" <= $1 AND NOT EXISTS (SELECT 1 FROM "PushDelivery" e
      WHERE e."taskId" = d."taskId" AND e."configId" = d."configId" AND e."state" = 'pending' AND e."seq" < d."seq")
    ORDER BY d."nextAttemptAt" LIMIT $2`,
  nextDue: `SELECT MIN("nextAttemptAt") AS "at" FROM "PushDelivery" WHERE "state" = 'pending' AND "owner" = $1`,
  start: `UPDATE "PushDelivery" SET "attempts" = "attempts" + 1, "attemptStartedAt" = $1
    WHERE "taskId" = $2 AND "configId" = $3 AND "seq" = $4 AND "state" = 'pending' AND "owner" = $5 RETURNING "attempts"`,
  outcome: `UPDATE "PushDelivery" SET "state" = $1, "nextAttemptAt" = $2, "lastError" = $3, "deliveredAt" = $4, "attemptStartedAt" = NULL
    WHERE "taskId" = $5 AND "configId" = $6 AND "seq" = $7 AND "state" = 'pending' AND "owner" = $8`,
};

const onPg = () => currentStore() === 'postgresql';

let cached: { conn: Database.Database; stmts: Record<keyof typeof SQLITE, Database.Statement> } | null = null;

function stmts() {
  const conn = sqliteTaskWriter().conn;
  if (cached?.conn !== conn) {
    cached = { conn, stmts: Object.fromEntries(Object.entries(SQLITE).map(([k, sql]) => [k, conn.prepare(sql)])) as Record<keyof typeof SQLITE, Database.Statement> };
  }
  return cached.stmts;
}

/** The heads of the pending queues that are due, this instance's own (`owner`) on PostgreSQL. */
export function duePushDeliveries(owner: string, now = new Date(), limit = 50): MaybeAsync<PushDeliveryRecord[]> {
  if (onPg()) return pgQuery<PushDeliveryRecord>(PG.due, [sqliteTime(now), limit, owner]).then((r) => r.rows);
  return stmts().due.all(sqliteTime(now), limit) as PushDeliveryRecord[];
}

export function nextPushDeliveryDue(owner: string): MaybeAsync<Date | null> {
  // Both stores give times in the writer's text format (pg-pool.ts parses timestamps so).
  const toDate = (row: { at: string | null } | undefined) => (row?.at ? new Date(row.at) : null);
  if (onPg()) return pgQuery<{ at: string | null }>(PG.nextDue, [owner]).then((r) => toDate(r.rows[0]));
  return toDate(stmts().nextDue.get() as { at: string | null });
}

/**
 * Marks an attempt as started (durably, before anything is sent): returns its number, or null
 * when the row is no longer this instance's pending row (delivered, or taken over).
 */
export function startPushAttempt(d: PushDeliveryRecord, owner: string, now = new Date()): MaybeAsync<number | null> {
  const read = (row: { attempts: number } | undefined) => row?.attempts ?? null;
  if (onPg()) return pgQuery<{ attempts: number }>(PG.start, [sqliteTime(now), d.taskId, d.configId, d.seq, owner]).then((r) => read(r.rows[0]));
  return read(stmts().start.get(sqliteTime(now), d.taskId, d.configId, d.seq) as { attempts: number } | undefined);
}

/** Records an attempt's outcome (only on this instance's pending row); true when it did. */
export function recordPushOutcome(d: PushDeliveryRecord, owner: string, outcome: PushOutcome, now = new Date()): MaybeAsync<boolean> {
  const values = [
    outcome.state,
    sqliteTime(outcome.state === 'pending' ? outcome.retryAt : now),
    outcome.state === 'delivered' ? null : outcome.error,
    outcome.state === 'delivered' ? sqliteTime(now) : null,
    d.taskId,
    d.configId,
    d.seq,
  ];
  if (onPg()) return pgQuery(PG.outcome, [...values, owner]).then((r) => (r.rowCount ?? 0) > 0);
  return stmts().outcome.run(...values).changes > 0;
}
