/**
 * The two outboxes on PostgreSQL: the statements of sqlite/outboxes.ts on the pool, each limited
 * to this instance's rows (the last parameter, `owner`): several instances share the tables, an
 * instance sends only its own rows, and every change of a row is a compare-and-set on its owner,
 * so a row another instance took over (leases.ts) is never attempted here again. The rows a
 * group commit's changes cause (change-outbox.ts) are inserted by statements sent with its COMMIT.
 */
import { sqliteTime } from '../task-store';
import type pg from 'pg';
import { notificationValues, plannedRows, type NewDelivery, type NewPush } from '../change-outbox';
import type { WriteResult } from '../task-store';
import { named } from './pool';
import type { PushDeliveryRecord, PushOutcome } from '../outbox-rows';
import { NOTIFICATION_COLUMNS, notificationOutcomeValues, pushOutcomeValues, toDeliveryRecord, toDueDate, type AttemptOutcome, type DeliveryRow } from '../outbox-rows';
import type { NotificationOutbox, PushDeliveryOutbox } from '../store';
import type { PgQuery } from './store';

const NOTIFICATION_INSERT = `INSERT INTO "NotificationDelivery" ("id","taskId","rule","event","seq","url","format","payload","owner","nextAttemptAt","createdAt")
  VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11) ON CONFLICT ("id") DO NOTHING`;
const PUSH_INSERT = `INSERT INTO "PushDelivery" ("taskId","configId","seq","owner","nextAttemptAt","createdAt")
  SELECT c."taskId", c."id", x.seq, x.owner, $4::timestamp(3), $4::timestamp(3)
  FROM unnest($1::text[], $2::integer[], $3::text[]) AS x(task, seq, owner) JOIN "PushConfig" c ON c."taskId" = x.task
  ON CONFLICT DO NOTHING`;

/** The statements inserting a group commit's outbox rows (sent with its COMMIT). */
export function outboxStatementsPg(values: unknown[]): pg.QueryConfig[] {
  const notifications: NewDelivery[] = [];
  const pushes: NewPush[] = [];
  for (const value of values) {
    if (!value) continue; // a failed guard wrote nothing
    const rows = plannedRows(value as WriteResult);
    notifications.push(...rows.notifications);
    pushes.push(...rows.pushes);
  }
  const at = sqliteTime(new Date());
  const statements = notifications.map((d) => named(NOTIFICATION_INSERT, notificationValues(d, at)));
  if (pushes.length) statements.push(named(PUSH_INSERT, [pushes.map((p) => p.taskId), pushes.map((p) => p.seq), pushes.map((p) => p.owner), at]));
  return statements;
}

const PUSH = {
  due: `SELECT d."taskId", d."configId", d."seq", d."attempts", d."attemptStartedAt" FROM "PushDelivery" d
    WHERE d."state" = 'pending' AND d."owner" = $3 AND d."nextAttemptAt" <= $1 AND NOT EXISTS (SELECT 1 FROM "PushDelivery" e
      WHERE e."taskId" = d."taskId" AND e."configId" = d."configId" AND e."state" = 'pending' AND e."seq" < d."seq")
    ORDER BY d."nextAttemptAt" LIMIT $2`,
  nextDue: 'SELECT MIN("nextAttemptAt") AS "at" FROM "PushDelivery" WHERE "state" = \'pending\' AND "owner" = $1',
  start: `UPDATE "PushDelivery" SET "attempts" = "attempts" + 1, "attemptStartedAt" = $1
    WHERE "taskId" = $2 AND "configId" = $3 AND "seq" = $4 AND "state" = 'pending' AND "owner" = $5 RETURNING "attempts"`,
  outcome: `UPDATE "PushDelivery" SET "state" = $1, "nextAttemptAt" = $2, "lastError" = $3, "deliveredAt" = $4, "attemptStartedAt" = NULL
    WHERE "taskId" = $5 AND "configId" = $6 AND "seq" = $7 AND "state" = 'pending' AND "owner" = $8`,
};

const NOTIFICATION = {
  insert: NOTIFICATION_INSERT,
  due: `SELECT ${NOTIFICATION_COLUMNS} FROM "NotificationDelivery" WHERE "state" = 'pending' AND "owner" = $3 AND "nextAttemptAt" <= $1 ORDER BY "nextAttemptAt" LIMIT $2`,
  nextDue: 'SELECT MIN("nextAttemptAt") AS "at" FROM "NotificationDelivery" WHERE "state" = \'pending\' AND "owner" = $1',
  start: 'UPDATE "NotificationDelivery" SET "attempts" = "attempts" + 1, "attemptStartedAt" = $1 WHERE "id" = $2 AND "state" = \'pending\' AND "owner" = $3 RETURNING "attempts"',
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
