/**
 * The notification outbox's rows (table NotificationDelivery): their types, and the stored
 * target kept to an origin. Rows are written in the transaction of the task change that causes
 * them (change-outbox.ts, planned by lib/notify) and read through the store's outbox
 * (`store().notifications`). A row belongs to one instance (`owner`), as a push delivery does.
 */
import { db } from './client';
import type { NewDelivery } from './change-outbox';

export type { NewDelivery };
export type { AttemptOutcome, DeliveryAttempt, DeliveryRecord, DeliveryState } from './outbox-rows';

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
