/**
 * The notification outbox (table NotificationDelivery). Rows are written in the transaction of
 * the task change that causes them (change-outbox.ts, planned by lib/notify); this is the rest:
 * on SQLite synchronous statements on the task writer's connection, on PostgreSQL the same
 * statements on the pool, so each function's result is a promise there. A row belongs to one
 * instance (`owner`), as a push delivery does (push-delivery-repo.ts): on PostgreSQL an instance
 * sends only its own rows, every change of a row is a compare-and-set on its owner, and a row
 * whose owner is gone is taken over (pg-leases.ts). On SQLite every row is this instance's.
 */
import type Database from 'better-sqlite3';
import { currentStore, db, pgQuery, sqliteTaskWriter } from './client';
import { sqliteTime } from './sqlite-writer';
import { NOTIFICATION_INSERT_PG, NOTIFICATION_INSERT_SQLITE, notificationValues, type NewDelivery } from './change-outbox';
import type { MaybeAsync } from '../util/maybe-async';

export type { NewDelivery };

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'refused';

export interface DeliveryAttempt {
  at: string;
  status?: number;
  error?: string;
}

export interface DeliveryRecord extends Omit<NewDelivery, 'owner'> {
  state: DeliveryState;
  /** Attempts started (an attempt counts once it started, also one whose outcome is unknown). */
  attempts: number;
  attemptLog: DeliveryAttempt[];
  nextAttemptAt: string;
  /** Set when an attempt was in flight and its outcome never recorded (its instance died). */
  attemptStartedAt: string | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

export interface AttemptOutcome {
  state: DeliveryState;
  attemptLog: DeliveryAttempt[];
  nextAttemptAt: Date;
  lastError: string | null;
  deliveredAt: Date | null;
}

type Row = Omit<DeliveryRecord, 'attemptLog'> & { attemptLog: string };

const toRecord = (r: Row): DeliveryRecord => ({ ...r, attemptLog: JSON.parse(r.attemptLog) as DeliveryAttempt[] });

const COLUMNS = '"id","taskId","rule","event","seq","url","format","payload","state","attempts","attemptLog","nextAttemptAt","attemptStartedAt","lastError","createdAt","deliveredAt"';

const outcomeValues = (id: string, o: AttemptOutcome) => [o.state, JSON.stringify(o.attemptLog), sqliteTime(o.nextAttemptAt), o.lastError, o.deliveredAt ? sqliteTime(o.deliveredAt) : null, id];

function statements(conn: Database.Database) {
  return {
    insert: conn.prepare(NOTIFICATION_INSERT_SQLITE),
    due: conn.prepare(`SELECT ${COLUMNS} FROM "NotificationDelivery" WHERE "state" = 'pending' AND "nextAttemptAt" <= ? ORDER BY "nextAttemptAt" LIMIT ?`),
    nextDue: conn.prepare(`SELECT MIN("nextAttemptAt") AS "at" FROM "NotificationDelivery" WHERE "state" = 'pending'`),
    start: conn.prepare(`UPDATE "NotificationDelivery" SET "attempts" = "attempts" + 1, "attemptStartedAt" = ? WHERE "id" = ? AND "state" = 'pending' RETURNING "attempts"`),
    outcome: conn.prepare(
      `UPDATE "NotificationDelivery" SET "state"=?, "attemptLog"=?, "nextAttemptAt"=?, "lastError"=?, "deliveredAt"=?, "attemptStartedAt"=NULL WHERE "id"=? AND "state"='pending'`,
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

/** The same statements on PostgreSQL, each limited to this instance's rows (the last parameter). */
const PG = {
  insert: NOTIFICATION_INSERT_PG,
  due: `SELECT ${COLUMNS} FROM "NotificationDelivery" WHERE "state" = 'pending' AND "owner" = $3 AND "nextAttemptAt" <= $1 ORDER BY "nextAttemptAt" LIMIT $2`,
  nextDue: `SELECT MIN("nextAttemptAt") AS "at" FROM "NotificationDelivery" WHERE "state" = 'pending' AND "owner" = $1`,
  start: `UPDATE "NotificationDelivery" SET "attempts" = "attempts" + 1, "attemptStartedAt" = $1 WHERE "id" = $2 AND "state" = 'pending' AND "owner" = $3 RETURNING "attempts"`,
  outcome: `UPDATE "NotificationDelivery" SET "state"=$1, "attemptLog"=$2, "nextAttemptAt"=$3, "lastError"=$4, "deliveredAt"=$5, "attemptStartedAt"=NULL
    WHERE "id"=$6 AND "state"='pending' AND "owner"=$7`,
  byTask: `SELECT ${COLUMNS} FROM "NotificationDelivery" WHERE "taskId" = $1 ORDER BY "createdAt", "id"`,
};

const onPg = () => currentStore() === 'postgresql';

/** Adds a delivery unless one with its id exists; true when it was new (outside a task change: tests, tools). */
export function enqueueDelivery(d: NewDelivery, now = new Date()): MaybeAsync<boolean> {
  const values = notificationValues(d, sqliteTime(now));
  if (onPg()) return pgQuery(PG.insert, values).then((r) => (r.rowCount ?? 0) > 0);
  return stmts().insert.run(...values).changes > 0;
}

/** The pending deliveries due at `now` (in due order), this instance's own (`owner`) on PostgreSQL. */
export function dueDeliveries(owner: string, now = new Date(), limit = 20): MaybeAsync<DeliveryRecord[]> {
  if (onPg()) return pgQuery<Row>(PG.due, [sqliteTime(now), limit, owner]).then((r) => r.rows.map(toRecord));
  return (stmts().due.all(sqliteTime(now), limit) as Row[]).map(toRecord);
}

/** When the next pending delivery (this instance's own, on PostgreSQL) is due, or null when none is pending. */
export function nextDeliveryDue(owner: string): MaybeAsync<Date | null> {
  const toDate = (row: { at: string | null } | undefined) => (row?.at ? new Date(row.at) : null);
  if (onPg()) return pgQuery<{ at: string | null }>(PG.nextDue, [owner]).then((r) => toDate(r.rows[0]));
  return toDate(stmts().nextDue.get() as { at: string | null });
}

/**
 * Marks an attempt as started (durably, before anything is sent): returns its number, or null
 * when the row is no longer this instance's pending row (finished, or taken over).
 */
export function startDeliveryAttempt(id: string, owner: string, now = new Date()): MaybeAsync<number | null> {
  const read = (row: { attempts: number } | undefined) => row?.attempts ?? null;
  if (onPg()) return pgQuery<{ attempts: number }>(PG.start, [sqliteTime(now), id, owner]).then((r) => read(r.rows[0]));
  return read(stmts().start.get(sqliteTime(now), id) as { attempts: number } | undefined);
}

/** Writes an attempt's outcome; only this instance's pending row changes, so a finished one is final. */
export function recordDeliveryAttempt(id: string, owner: string, o: AttemptOutcome): MaybeAsync<boolean> {
  const values = outcomeValues(id, o);
  if (onPg()) return pgQuery(PG.outcome, [...values, owner]).then((r) => (r.rowCount ?? 0) > 0);
  return stmts().outcome.run(...values).changes > 0;
}

export function listTaskDeliveries(taskId: string): MaybeAsync<DeliveryRecord[]> {
  if (onPg()) return pgQuery<Row>(PG.byTask, [taskId]).then((r) => r.rows.map(toRecord));
  return (stmts().byTask.all(taskId) as Row[]).map(toRecord);
}

const ORIGIN_PAGE = 200;

/** The part of a stored target kept in its row: the origin, never a path, query or user info. */
export function storedTargetOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'invalid URL';
  }
}

/**
 * Rows written before decision 179 hold the rule's full URL, whose path or query is often the
 * webhook's secret: they are cut to the origin (decision 236), a page at a time. An origin has
 * nothing after its host but a port, so a row with `/`, `?`, `#` or `@` after the scheme is an
 * old one; once rewritten it no longer matches, so running this at every start costs one scan.
 * The update matches the value read (two instances starting together). Returns the rows changed.
 */
export async function cutStoredTargetsToOrigin(): Promise<number> {
  let changed = 0;
  for (;;) {
    const rows = await db().$queryRaw<{ id: string; url: string }[]>`
      SELECT "id", "url" FROM "NotificationDelivery"
      WHERE "url" LIKE '%://%/%' OR "url" LIKE '%?%' OR "url" LIKE '%#%' OR "url" LIKE '%@%'
      LIMIT ${ORIGIN_PAGE}`;
    const old = rows.filter((row) => storedTargetOf(row.url) !== row.url);
    for (const row of old) {
      changed += (await db().notificationDelivery.updateMany({ where: { id: row.id, url: row.url }, data: { url: storedTargetOf(row.url) } })).count;
    }
    if (rows.length < ORIGIN_PAGE || old.length === 0) return changed;
  }
}
