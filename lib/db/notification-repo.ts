/**
 * The notification outbox (table NotificationDelivery). Rows are written in the transaction of
 * the task change that causes them (change-outbox.ts, planned by lib/notify); this is the rest,
 * on the store's outbox (sqlite/outboxes.ts: synchronous statements; postgres/outboxes.ts: the
 * same on the pool, so each result is a promise there). A row belongs to one instance (`owner`),
 * as a push delivery does (push-delivery-repo.ts).
 */
import { store } from './store';
import type { NewDelivery } from './change-outbox';
import type { AttemptOutcome, DeliveryRecord } from './outbox-rows';
import type { MaybeAsync } from '../util/maybe-async';

export type { NewDelivery };
export type { AttemptOutcome, DeliveryAttempt, DeliveryRecord, DeliveryState } from './outbox-rows';

/** Adds a delivery unless one with its id exists; true when it was new (outside a task change: tests, tools). */
export function enqueueDelivery(d: NewDelivery, now = new Date()): MaybeAsync<boolean> {
  return store().notifications.enqueue(d, now);
}

/** The pending deliveries due at `now` (in due order), this instance's own (`owner`). */
export function dueDeliveries(owner: string, now = new Date(), limit = 20): MaybeAsync<DeliveryRecord[]> {
  return store().notifications.due(owner, now, limit);
}

/** When the next pending delivery (this instance's own) is due, or null when none is pending. */
export function nextDeliveryDue(owner: string): MaybeAsync<Date | null> {
  return store().notifications.nextDue(owner);
}

/**
 * Marks an attempt as started (durably, before anything is sent): returns its number, or null
 * when the row is no longer this instance's pending row (finished, or taken over).
 */
export function startDeliveryAttempt(id: string, owner: string, now = new Date()): MaybeAsync<number | null> {
  return store().notifications.startAttempt(id, owner, now);
}

/** Writes an attempt's outcome; only this instance's pending row changes, so a finished one is final. */
export function recordDeliveryAttempt(id: string, owner: string, o: AttemptOutcome): MaybeAsync<boolean> {
  return store().notifications.recordAttempt(id, owner, o);
}

export function listTaskDeliveries(taskId: string): MaybeAsync<DeliveryRecord[]> {
  return store().notifications.byTask(taskId);
}
