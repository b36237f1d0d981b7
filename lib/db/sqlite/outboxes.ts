/**
 * The two outboxes on SQLite (store.ts says what they hold):
 * synchronous statements on the task writer's connection, and the rows a change causes
 * (change-outbox.ts) inserted in the change's savepoint. One instance owns the file, so every
 * row is its own, whatever name wrote it: `owner` is not asked.
 */
import type Database from 'better-sqlite3';
import { sqliteTime } from '../task-store';
import { notificationValues, plannedRows, type NewDelivery } from '../change-outbox';
import type { WriteResult } from '../task-store';
import type { PushDeliveryRecord, PushOutcome } from '../outbox-rows';
import { NOTIFICATION_COLUMNS, notificationOutcomeValues, pushOutcomeValues, toDeliveryRecord, toDueDate, type AttemptOutcome, type DeliveryRecord, type DeliveryRow } from '../outbox-rows';
import type { NotificationOutbox, PushDeliveryOutbox } from '../store';

const NOTIFICATION_INSERT = 'INSERT OR IGNORE INTO "NotificationDelivery" ("id","taskId","rule","event","seq","url","format","payload","owner","nextAttemptAt","createdAt") VALUES (?,?,?,?,?,?,?,?,?,?,?)';
const PUSH_INSERT = `INSERT OR IGNORE INTO "PushDelivery" ("taskId","configId","seq","owner","nextAttemptAt","createdAt")
  SELECT "taskId", "id", ?, ?, ?, ? FROM "PushConfig" WHERE "taskId" = ?`;

const insertStatements = new WeakMap<Database.Database, { notification: Database.Statement; push: Database.Statement }>();

/** A write's outbox rows, in its savepoint (synchronous, on the writer's connection). */
export function writeOutboxSqlite(conn: Database.Database, written: WriteResult): void {
  const rows = plannedRows(written);
  if (!rows.notifications.length && !rows.pushes.length) return;
  let stmts = insertStatements.get(conn);
  if (!stmts) insertStatements.set(conn, (stmts = { notification: conn.prepare(NOTIFICATION_INSERT), push: conn.prepare(PUSH_INSERT) }));
  const at = sqliteTime(new Date());
  for (const d of rows.notifications) stmts.notification.run(...notificationValues(d, at));
  for (const p of rows.pushes) stmts.push.run(p.seq, p.owner, at, at, p.taskId);
}

const KEY = '"taskId" = ? AND "configId" = ? AND "seq" = ?';
const PUSH = {
  due: `SELECT d."taskId", d."configId", d."seq", d."attempts", d."attemptStartedAt" FROM "PushDelivery" d
    WHERE d."state" = 'pending' AND d."nextAttemptAt" <= ? AND NOT EXISTS (SELECT 1 FROM "PushDelivery" e
      WHERE e."taskId" = d."taskId" AND e."configId" = d."configId" AND e."state" = 'pending' AND e."seq" < d."seq")
    ORDER BY d."nextAttemptAt" LIMIT ?`,
  nextDue: 'SELECT MIN("nextAttemptAt") AS "at" FROM "PushDelivery" WHERE "state" = \'pending\'',
  start: `UPDATE "PushDelivery" SET "attempts" = "attempts" + 1, "attemptStartedAt" = ? WHERE ${KEY} AND "state" = 'pending' RETURNING "attempts"`,
  outcome: `UPDATE "PushDelivery" SET "state" = ?, "nextAttemptAt" = ?, "lastError" = ?, "deliveredAt" = ?, "attemptStartedAt" = NULL
    WHERE ${KEY} AND "state" = 'pending'`,
};

const NOTIFICATION = {
  insert: NOTIFICATION_INSERT,
  due: `SELECT ${NOTIFICATION_COLUMNS} FROM "NotificationDelivery" WHERE "state" = 'pending' AND "nextAttemptAt" <= ? ORDER BY "nextAttemptAt" LIMIT ?`,
  nextDue: 'SELECT MIN("nextAttemptAt") AS "at" FROM "NotificationDelivery" WHERE "state" = \'pending\'',
  start: 'UPDATE "NotificationDelivery" SET "attempts" = "attempts" + 1, "attemptStartedAt" = ? WHERE "id" = ? AND "state" = \'pending\' RETURNING "attempts"',
  outcome: 'UPDATE "NotificationDelivery" SET "state"=?, "attemptLog"=?, "nextAttemptAt"=?, "lastError"=?, "deliveredAt"=?, "attemptStartedAt"=NULL WHERE "id"=? AND "state"=\'pending\'',
  byTask: `SELECT ${NOTIFICATION_COLUMNS} FROM "NotificationDelivery" WHERE "taskId" = ? ORDER BY "createdAt", "id"`,
};

type Prepared<T> = { [K in keyof T]: Database.Statement };

/** `sql` prepared on the writer's connection, again only if the connection changed. */
function preparedOn<T extends Record<string, string>>(conn: () => Database.Database, sql: T): () => Prepared<T> {
  let cached: { conn: Database.Database; stmts: Prepared<T> } | null = null;
  return () => {
    const c = conn();
    if (cached?.conn !== c) cached = { conn: c, stmts: Object.fromEntries(Object.entries(sql).map(([k, text]) => [k, c.prepare(text)])) as Prepared<T> };
    return cached.stmts;
  };
}

type AtRow = { at: string | null } | undefined;
type AttemptsRow = { attempts: number } | undefined;

export function sqlitePushDeliveries(conn: () => Database.Database): PushDeliveryOutbox {
  const stmts = preparedOn(conn, PUSH);
  return {
    due: (_owner, now, limit) => stmts().due.all(sqliteTime(now), limit) as PushDeliveryRecord[],
    nextDue: () => toDueDate(stmts().nextDue.get() as AtRow),
    startAttempt: (d, _owner, now) => (stmts().start.get(sqliteTime(now), d.taskId, d.configId, d.seq) as AttemptsRow)?.attempts ?? null,
    recordOutcome: (d: PushDeliveryRecord, _owner: string, outcome: PushOutcome, now: Date) => stmts().outcome.run(...pushOutcomeValues(d, outcome, now)).changes > 0,
  };
}

export function sqliteNotifications(conn: () => Database.Database): NotificationOutbox {
  const stmts = preparedOn(conn, NOTIFICATION);
  return {
    enqueue: (d: NewDelivery, now: Date) => stmts().insert.run(...notificationValues(d, sqliteTime(now))).changes > 0,
    due: (_owner, now, limit) => (stmts().due.all(sqliteTime(now), limit) as DeliveryRow[]).map(toDeliveryRecord),
    nextDue: () => toDueDate(stmts().nextDue.get() as AtRow),
    startAttempt: (id, _owner, now) => (stmts().start.get(sqliteTime(now), id) as AttemptsRow)?.attempts ?? null,
    recordAttempt: (id: string, _owner: string, o: AttemptOutcome) => stmts().outcome.run(...notificationOutcomeValues(id, o)).changes > 0,
    byTask: (taskId): DeliveryRecord[] => (stmts().byTask.all(taskId) as DeliveryRow[]).map(toDeliveryRecord),
  };
}
