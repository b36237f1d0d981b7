/**
 * Deletes finished outbox rows: push deliveries and operator notifications that were delivered,
 * failed or refused longer ago than the retention (SWITCHBOARD_OUTBOX_RETENTION), so the tables
 * do not grow forever; the task page's delivery log shows the rows inside it. A finished row's
 * `nextAttemptAt` is when its last outcome was written (both senders write it so). Only finished
 * rows match, and a finished row never changes again (every update is guarded on `pending`), so
 * a pending row, even one overdue with an attempt in flight, is never touched.
 *
 * Bounded: at most PRUNE_BATCH rows per statement, paced to a tenth of the time while there is a
 * backlog (prune-batches.ts). Run by the pruner (pruner.ts). On PostgreSQL every instance prunes on its
 * own: deleting finished rows is idempotent, and each batch skips rows another instance's batch
 * holds (SKIP LOCKED), so two at once split the work instead of waiting.
 */
import { sqliteTime } from './task-store';
import type { OwnedOutbox } from './postgres/leases';
import type { PushOutcome } from './outbox-rows';
import type { DeliveryState } from './notification-repo';
import { deleteInBatches, PRUNE_BATCH, type PruneStatement } from './prune-batches';

/** Each outbox and its finished states (those its sender's outcome writes besides `pending`). */
const FINISHED = {
  PushDelivery: ['delivered', 'failed'],
  NotificationDelivery: ['delivered', 'failed', 'refused'],
} as const satisfies { PushDelivery: readonly Exclude<PushOutcome['state'], 'pending'>[]; NotificationDelivery: readonly Exclude<DeliveryState, 'pending'>[] } & Record<OwnedOutbox, readonly string[]>;
type Outbox = OwnedOutbox;
export type PrunedCounts = Record<Outbox, number>;

const OUTBOXES = Object.keys(FINISHED) as Outbox[];
const finished = (outbox: Outbox) => `"state" IN (${FINISHED[outbox].map((s) => `'${s}'`).join(', ')})`;

const statement = (outbox: Outbox): PruneStatement => ({
  sqlite: `DELETE FROM "${outbox}" WHERE rowid IN (SELECT rowid FROM "${outbox}" WHERE ${finished(outbox)} AND "nextAttemptAt" < ? LIMIT ?)`,
  pg: `DELETE FROM "${outbox}" WHERE ctid = ANY(ARRAY(SELECT ctid FROM "${outbox}" WHERE ${finished(outbox)} AND "nextAttemptAt" < $1 LIMIT $2 FOR UPDATE SKIP LOCKED))`,
});

/** Deletes the rows of every outbox that finished before `now - retentionMs`, `batch` per statement. */
export async function pruneFinishedOutbox(retentionMs: number, now = new Date(), batch = PRUNE_BATCH): Promise<PrunedCounts> {
  const cutoff = sqliteTime(new Date(now.getTime() - retentionMs));
  const pruned = Object.fromEntries(OUTBOXES.map((o) => [o, 0])) as PrunedCounts;
  for (const outbox of OUTBOXES) pruned[outbox] = await deleteInBatches(statement(outbox), [cutoff], batch);
  return pruned;
}
