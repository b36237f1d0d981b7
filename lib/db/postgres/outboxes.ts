/**
 * The two outboxes on PostgreSQL: the statements of sqlite/outboxes.ts on the pool, each limited
 * to this instance's rows (the last parameter, `owner`): several instances share the tables, an
 * instance sends only its own rows, and every change of a row is a compare-and-set on its owner,
 * so a row another instance took over (leases.ts) is never attempted here again.
 */
import { sqliteTime } from '../task-store';
import { NOTIFICATION_INSERT_PG, notificationValues, type NewDelivery } from '../change-outbox';
import type { PushDeliveryRecord, PushOutcome } from '../push-delivery-repo';
import { NOTIFICATION_COLUMNS, notificationOutcomeValues, pushOutcomeValues, toDeliveryRecord, toDueDate, type AttemptOutcome, type DeliveryRow } from '../outbox-rows';
import type { NotificationOutbox, PushDeliveryOutbox } from '../store';
import type { PgQuery } from './store';

const PUSH = {
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

const NOTIFICATION = {
  insert: NOTIFICATION_INSERT_PG,
  due: `SELECT ${NOTIFICATION_COLUMNS} FROM "NotificationDelivery" WHERE "state" = 'pending' AND "owner" = $3 AND "nextAttemptAt" <= $1 ORDER BY "nextAttemptAt" LIMIT $2`,
  nextDue: `SELECT MIN("nextAttemptAt") AS "at" FROM "NotificationDelivery" WHERE "state" = 'pending' AND "owner" = $1`,
  start: `UPDATE "NotificationDelivery" SET "attempts" = "attempts" + 1, "attemptStartedAt" = $1 WHERE "id" = $2 AND "state" = 'pending' AND "owner" = $3 RETURNING "attempts"`,
  outcome: `UPDATE "NotificationDelivery" SET "state"=$1, "attemptLog"=$2, "nextAttemptAt"=$3, "lastError"=$4, "deliveredAt"=$5, "attemptStartedAt"=NULL
    WHERE "id"=$6 AND "state"='pending' AND "owner"=$7`,
  byTask: `SELECT ${NOTIFICATION_COLUMNS} FROM "NotificationDelivery" WHERE "taskId" = $1 ORDER BY "createdAt", "id"`,
};

const changed = (r: { rowCount: number | null }) => (r.rowCount ?? 0) > 0;

export function pgPushDeliveries(query: PgQuery): PushDeliveryOutbox {
  return {
    due: (owner, now, limit) => query<PushDeliveryRecord>(PUSH.due, [sqliteTime(now), limit, owner]).then((r) => r.rows),
    // Times come back in the writer's text format (pool.ts parses timestamps so), as on SQLite.
    nextDue: (owner) => query<{ at: string | null }>(PUSH.nextDue, [owner]).then((r) => toDueDate(r.rows[0])),
    startAttempt: (d, owner, now) => query<{ attempts: number }>(PUSH.start, [sqliteTime(now), d.taskId, d.configId, d.seq, owner]).then((r) => r.rows[0]?.attempts ?? null),
    recordOutcome: (d: PushDeliveryRecord, owner: string, outcome: PushOutcome, now: Date) => query(PUSH.outcome, [...pushOutcomeValues(d, outcome, now), owner]).then(changed),
  };
}

export function pgNotifications(query: PgQuery): NotificationOutbox {
  return {
    enqueue: (d: NewDelivery, now: Date) => query(NOTIFICATION.insert, notificationValues(d, sqliteTime(now))).then(changed),
    due: (owner, now, limit) => query<DeliveryRow>(NOTIFICATION.due, [sqliteTime(now), limit, owner]).then((r) => r.rows.map(toDeliveryRecord)),
    nextDue: (owner) => query<{ at: string | null }>(NOTIFICATION.nextDue, [owner]).then((r) => toDueDate(r.rows[0])),
    startAttempt: (id, owner, now) => query<{ attempts: number }>(NOTIFICATION.start, [sqliteTime(now), id, owner]).then((r) => r.rows[0]?.attempts ?? null),
    recordAttempt: (id: string, owner: string, o: AttemptOutcome) => query(NOTIFICATION.outcome, [...notificationOutcomeValues(id, o), owner]).then(changed),
    byTask: (taskId) => query<DeliveryRow>(NOTIFICATION.byTask, [taskId]).then((r) => r.rows.map(toDeliveryRecord)),
  };
}
