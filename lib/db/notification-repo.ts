/**
 * The notification outbox (table NotificationDelivery), on the task writer's connection with
 * synchronous statements: a delivery is on disk before the hub listener that enqueued it
 * returns, so a shutdown (or a crash) right after a task's end cannot lose it.
 */
import type Database from 'better-sqlite3';
import { sqliteTaskWriter } from './client';
import { sqliteTime } from './sqlite-writer';

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'refused';

export interface DeliveryAttempt {
  at: string;
  status?: number;
  error?: string;
}

export interface DeliveryRecord {
  id: string;
  taskId: string;
  rule: string;
  event: string;
  seq: number;
  url: string;
  format: string;
  payload: string;
  state: DeliveryState;
  attempts: number;
  attemptLog: DeliveryAttempt[];
  nextAttemptAt: string;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

export type NewDelivery = Pick<DeliveryRecord, 'id' | 'taskId' | 'rule' | 'event' | 'seq' | 'url' | 'format' | 'payload'>;

export interface AttemptOutcome {
  state: DeliveryState;
  attempts: number;
  attemptLog: DeliveryAttempt[];
  nextAttemptAt: Date;
  lastError: string | null;
  deliveredAt: Date | null;
}

type Row = Omit<DeliveryRecord, 'attemptLog'> & { attemptLog: string };

const toRecord = (r: Row): DeliveryRecord => ({ ...r, attemptLog: JSON.parse(r.attemptLog) as DeliveryAttempt[] });

const COLUMNS = '"id","taskId","rule","event","seq","url","format","payload","state","attempts","attemptLog","nextAttemptAt","lastError","createdAt","deliveredAt"';

function statements(conn: Database.Database) {
  return {
    insert: conn.prepare(
      `INSERT OR IGNORE INTO "NotificationDelivery" ("id","taskId","rule","event","seq","url","format","payload","nextAttemptAt","createdAt") VALUES (?,?,?,?,?,?,?,?,?,?)`,
    ),
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

/** Adds a delivery unless one with its id exists; true when it was new. */
export function enqueueDelivery(d: NewDelivery, now = new Date()): boolean {
  const at = sqliteTime(now);
  return stmts().insert.run(d.id, d.taskId, d.rule, d.event, d.seq, d.url, d.format, d.payload, at, at).changes > 0;
}

export function dueDeliveries(now = new Date(), limit = 20): DeliveryRecord[] {
  return (stmts().due.all(sqliteTime(now), limit) as Row[]).map(toRecord);
}

/** When the next pending delivery is due, or null when none is pending. */
export function nextDeliveryDue(): Date | null {
  const row = stmts().nextDue.get() as { at: string | null };
  return row.at ? new Date(row.at) : null;
}

/** Writes an attempt's outcome; only a pending row changes, so a delivered one is final. */
export function recordDeliveryAttempt(id: string, o: AttemptOutcome): boolean {
  const result = stmts().update.run(o.state, o.attempts, JSON.stringify(o.attemptLog), sqliteTime(o.nextAttemptAt), o.lastError, o.deliveredAt ? sqliteTime(o.deliveredAt) : null, id);
  return result.changes > 0;
}

export function listTaskDeliveries(taskId: string): DeliveryRecord[] {
  return (stmts().byTask.all(taskId) as Row[]).map(toRecord);
}
