/**
 * The transactional outbox: the work a task change causes (an operator notification, a push
 * delivery) is written in the change's own transaction, so a crash cannot keep the change and
 * lose its work. Planners, registered by lib/notify and lib/push (above lib/db), say in memory
 * what a write causes; the writers insert it before their commit: sqlite/writer.ts in each
 * write's savepoint, postgres/store.ts once per group commit (sent with its NOTIFY and COMMIT). A planner runs for
 * every write inside the transaction, so it must be cheap and synchronous.
 */
import type Database from 'better-sqlite3';
import type pg from 'pg';
import { processSingleton } from '../process-singleton';
import { named } from './postgres/pool';
import { sqliteTime, type WriteResult } from './task-store';

/** An operator notification (table NotificationDelivery, lib/db/notification-repo.ts). */
export interface NewDelivery {
  id: string;
  taskId: string;
  rule: string;
  event: string;
  seq: number;
  url: string;
  format: string;
  payload: string;
  /** The instance that will send it (the committing one). */
  owner: string;
}

/** A push notification for every config the task has when the change commits (table PushDelivery). */
export interface NewPush {
  taskId: string;
  /** The status (or detached) event that triggers it. */
  seq: number;
  /** The instance that will send it (the committing one). */
  owner: string;
}

export interface OutboxRows {
  notifications?: NewDelivery[];
  pushes?: NewPush[];
}

export type OutboxPlanner = (written: WriteResult) => OutboxRows | null;

// Process-wide: lib/push and lib/notify register at boot (instrumentation's bundle), and the writer,
// possibly made in a route bundle, must see them.
const planners = () => processSingleton('outbox-planners', () => new Set<OutboxPlanner>());

/** Registers a planner for every later write (once per process: pass the same function). */
export function planOutbox(planner: OutboxPlanner): void {
  planners().add(planner);
}

function plan(written: WriteResult): { notifications: NewDelivery[]; pushes: NewPush[] } {
  const rows = { notifications: [] as NewDelivery[], pushes: [] as NewPush[] };
  for (const planner of planners()) {
    const planned = planner(written);
    if (planned?.notifications) rows.notifications.push(...planned.notifications);
    if (planned?.pushes) rows.pushes.push(...planned.pushes);
  }
  return rows;
}

export const NOTIFICATION_INSERT_SQLITE = `INSERT OR IGNORE INTO "NotificationDelivery" ("id","taskId","rule","event","seq","url","format","payload","owner","nextAttemptAt","createdAt") VALUES (?,?,?,?,?,?,?,?,?,?,?)`;
export const NOTIFICATION_INSERT_PG = `INSERT INTO "NotificationDelivery" ("id","taskId","rule","event","seq","url","format","payload","owner","nextAttemptAt","createdAt")
  VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11) ON CONFLICT ("id") DO NOTHING`;
export const notificationValues = (d: NewDelivery, at: string) => [d.id, d.taskId, d.rule, d.event, d.seq, d.url, d.format, d.payload, d.owner, at, at];

const PUSH_INSERT_SQLITE = `INSERT OR IGNORE INTO "PushDelivery" ("taskId","configId","seq","owner","nextAttemptAt","createdAt")
  SELECT "taskId", "id", ?, ?, ?, ? FROM "PushConfig" WHERE "taskId" = ?`;
const PUSH_INSERT_PG = `INSERT INTO "PushDelivery" ("taskId","configId","seq","owner","nextAttemptAt","createdAt")
  SELECT c."taskId", c."id", x.seq, x.owner, $4::timestamp(3), $4::timestamp(3)
  FROM unnest($1::text[], $2::integer[], $3::text[]) AS x(task, seq, owner) JOIN "PushConfig" c ON c."taskId" = x.task
  ON CONFLICT DO NOTHING`;

const sqliteStatements = new WeakMap<Database.Database, { notification: Database.Statement; push: Database.Statement }>();

/** SQLite: the write's outbox rows, in its savepoint (synchronous, on the writer's connection). */
export function writeOutboxSqlite(conn: Database.Database, written: WriteResult): void {
  const rows = plan(written);
  if (!rows.notifications.length && !rows.pushes.length) return;
  let stmts = sqliteStatements.get(conn);
  if (!stmts) sqliteStatements.set(conn, (stmts = { notification: conn.prepare(NOTIFICATION_INSERT_SQLITE), push: conn.prepare(PUSH_INSERT_SQLITE) }));
  const at = sqliteTime(new Date());
  for (const d of rows.notifications) stmts.notification.run(...notificationValues(d, at));
  for (const p of rows.pushes) stmts.push.run(p.seq, p.owner, at, at, p.taskId);
}

/** PostgreSQL: the statements inserting a group commit's outbox rows (sent with its COMMIT). */
export function outboxStatementsPg(values: unknown[]): pg.QueryConfig[] {
  const notifications: NewDelivery[] = [];
  const pushes: NewPush[] = [];
  for (const value of values) {
    if (!value) continue; // a failed guard wrote nothing
    const rows = plan(value as WriteResult);
    notifications.push(...rows.notifications);
    pushes.push(...rows.pushes);
  }
  const at = sqliteTime(new Date());
  const statements = notifications.map((d) => named(NOTIFICATION_INSERT_PG, notificationValues(d, at)));
  if (pushes.length) statements.push(named(PUSH_INSERT_PG, [pushes.map((p) => p.taskId), pushes.map((p) => p.seq), pushes.map((p) => p.owner), at]));
  return statements;
}
