/**
 * The notification outbox (table NotificationDelivery). Rows are written in the transaction of
 * the task change that causes them (change-outbox.ts, planned by lib/notify); this is the rest,
 * on the store's outbox (sqlite/outboxes.ts: synchronous statements; postgres/outboxes.ts: the
 * same on the pool, so each result is a promise there). A row belongs to one instance (`owner`),
 * as a push delivery does (push-delivery-repo.ts).
 */
import { store } from './store';
import { db } from './client';
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
