/**
 * The push-delivery outbox (table PushDelivery, migration 0010). Rows are written in the
 * transaction of the task change that causes them (change-outbox.ts); this is what the sender
 * (lib/push/push-delivery.ts) does with them, on the store's outbox (sqlite/outboxes.ts,
 * postgres/outboxes.ts). A row belongs to one instance (`owner`): where several instances share
 * the database an instance sends only its own rows. Deliveries of one config go out in seq
 * order: only the oldest pending row of each is due.
 */
import { store } from './store';
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

/** The heads of the pending queues that are due, this instance's own (`owner`). */
export function duePushDeliveries(owner: string, now = new Date(), limit = 50): MaybeAsync<PushDeliveryRecord[]> {
  return store().pushDeliveries.due(owner, now, limit);
}

export function nextPushDeliveryDue(owner: string): MaybeAsync<Date | null> {
  return store().pushDeliveries.nextDue(owner);
}

/**
 * Marks an attempt as started (durably, before anything is sent): returns its number, or null
 * when the row is no longer this instance's pending row (delivered, or taken over).
 */
export function startPushAttempt(d: PushDeliveryRecord, owner: string, now = new Date()): MaybeAsync<number | null> {
  return store().pushDeliveries.startAttempt(d, owner, now);
}

/** Records an attempt's outcome (only on this instance's pending row); true when it did. */
export function recordPushOutcome(d: PushDeliveryRecord, owner: string, outcome: PushOutcome, now = new Date()): MaybeAsync<boolean> {
  return store().pushDeliveries.recordOutcome(d, owner, outcome, now);
}
