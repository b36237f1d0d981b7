/**
 * The outbox rows both stores read and write alike (sqlite/outboxes.ts, postgres/outboxes.ts):
 * the notification record and its stored shape, the push delivery record, the values of an
 * outcome, the due time.
 */
import { sqliteTime } from './task-store';
import type { NewDelivery } from './change-outbox';

/** A push delivery (table PushDelivery): deliveries of one config go out in seq order. */
export interface PushDeliveryRecord {
  taskId: string;
  configId: string;
  seq: number;
  attempts: number;
  /** Set when an attempt was in flight and its outcome never recorded (its instance died). */
  attemptStartedAt: string | null;
}

export type PushOutcome = { state: 'delivered' } | { state: 'failed'; error: string } | { state: 'pending'; error: string; retryAt: Date };

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

export type DeliveryRow = Omit<DeliveryRecord, 'attemptLog'> & { attemptLog: string };

export const toDeliveryRecord = (r: DeliveryRow): DeliveryRecord => ({ ...r, attemptLog: JSON.parse(r.attemptLog) as DeliveryAttempt[] });

export const NOTIFICATION_COLUMNS = '"id","taskId","rule","event","seq","url","format","payload","state","attempts","attemptLog","nextAttemptAt","attemptStartedAt","lastError","createdAt","deliveredAt"';

/** The SET values, then the key, of a notification attempt's outcome. */
export const notificationOutcomeValues = (id: string, o: AttemptOutcome) =>
  [o.state, JSON.stringify(o.attemptLog), sqliteTime(o.nextAttemptAt), o.lastError, o.deliveredAt ? sqliteTime(o.deliveredAt) : null, id];

/** The SET values, then the key, of a push attempt's outcome. */
export const pushOutcomeValues = (d: PushDeliveryRecord, outcome: PushOutcome, now: Date) => [
  outcome.state,
  sqliteTime(outcome.state === 'pending' ? outcome.retryAt : now),
  outcome.state === 'delivered' ? null : outcome.error,
  outcome.state === 'delivered' ? sqliteTime(now) : null,
  d.taskId,
  d.configId,
  d.seq,
];

/** Both stores give times in the writer's text format. */
export const toDueDate = (row: { at: string | null } | undefined) => (row?.at ? new Date(row.at) : null);
