/**
 * The transactional outbox: the work a task change causes (an operator notification, a push
 * delivery) is written in the change's own transaction, so a crash cannot keep the change and
 * lose its work. Planners, registered by lib/notify and lib/push (above lib/db), say in memory
 * what a write causes; the writers insert it before their commit: on SQLite in each write's
 * savepoint (sqlite/outboxes.ts, from sqlite/writer.ts), on PostgreSQL once per group commit, sent
 * with its NOTIFY and COMMIT (postgres/outboxes.ts, from postgres/store.ts). A planner runs for
 * every write inside the transaction, so it must be cheap and synchronous.
 */
import { appPart } from '../process-singleton';
import type { WriteResult } from './task-store';

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

// The app's: lib/push and lib/notify register at start-up (instrumentation's bundle), and the writer,
// possibly made in a route bundle, must see them.
const planners = () => appPart('outboxPlanners', () => new Set<OutboxPlanner>());

/** Registers a planner for every later write (once per process: pass the same function). */
export function planOutbox(planner: OutboxPlanner): void {
  planners().add(planner);
}

/** What the registered planners say `written` causes. */
export function plannedRows(written: WriteResult): { notifications: NewDelivery[]; pushes: NewPush[] } {
  const rows = { notifications: [] as NewDelivery[], pushes: [] as NewPush[] };
  for (const planner of planners()) {
    const planned = planner(written);
    if (planned?.notifications) rows.notifications.push(...planned.notifications);
    if (planned?.pushes) rows.pushes.push(...planned.pushes);
  }
  return rows;
}

/** A notification row's insert values (both stores' statements list the columns in this order). */
export const notificationValues = (d: NewDelivery, at: string) => [d.id, d.taskId, d.rule, d.event, d.seq, d.url, d.format, d.payload, d.owner, at, at];

declare module '../process-singleton' {
  interface AppParts {
    /** What plans outbox rows in a write. */
    outboxPlanners: Set<OutboxPlanner>;
  }
}
