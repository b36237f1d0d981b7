/**
 * Deletes finished outbox rows: push deliveries and operator notifications that were delivered,
 * failed or refused longer ago than the retention (SWITCHBOARD_OUTBOX_RETENTION), so the tables
 * do not grow forever; the task page's delivery log shows the rows inside it. A finished row's
 * `nextAttemptAt` is when its last outcome was written (both senders write it so). Only finished
 * rows match, and a finished row never changes again (every update is guarded on `pending`), so
 * a pending row, even one overdue with an attempt in flight, is never touched.
 *
 * Bounded: at most BATCH rows per statement, the event loop free between statements. Rarely: at
 * start-up, then every hour (or every retention, if that is shorter). On PostgreSQL every
 * instance prunes on its own: deleting finished rows is idempotent, and each batch skips rows
 * another instance's batch holds (SKIP LOCKED), so two at once split the work instead of waiting.
 */
import { currentStore, pgQuery, sqliteTaskWriter } from './client';
import { sqliteTime } from './task-store';
import type { OwnedOutbox } from './pg-leases';
import type { PushOutcome } from './push-delivery-repo';
import type { DeliveryState } from './notification-repo';
import { processSingleton } from '../process-singleton';
import { errorMessage, log } from '../log';

const BATCH = 1_000;
const MAX_INTERVAL_MS = 3_600_000;

/** Each outbox and its finished states (those its sender's outcome writes besides `pending`). */
const FINISHED = {
  PushDelivery: ['delivered', 'failed'],
  NotificationDelivery: ['delivered', 'failed', 'refused'],
} as const satisfies { PushDelivery: readonly Exclude<PushOutcome['state'], 'pending'>[]; NotificationDelivery: readonly Exclude<DeliveryState, 'pending'>[] } & Record<OwnedOutbox, readonly string[]>;
type Outbox = OwnedOutbox;
export type PrunedCounts = Record<Outbox, number>;

const OUTBOXES = Object.keys(FINISHED) as Outbox[];
const finished = (outbox: Outbox) => `"state" IN (${FINISHED[outbox].map((s) => `'${s}'`).join(', ')})`;

const sqliteSql = (outbox: Outbox) =>
  `DELETE FROM "${outbox}" WHERE rowid IN (SELECT rowid FROM "${outbox}" WHERE ${finished(outbox)} AND "nextAttemptAt" < ? LIMIT ?)`;
const pgSql = (outbox: Outbox) =>
  `DELETE FROM "${outbox}" WHERE ctid = ANY(ARRAY(SELECT ctid FROM "${outbox}" WHERE ${finished(outbox)} AND "nextAttemptAt" < $1 LIMIT $2 FOR UPDATE SKIP LOCKED))`;

async function deleteBatch(outbox: Outbox, cutoff: string, batch: number): Promise<number> {
  if (currentStore() === 'postgresql') return (await pgQuery(pgSql(outbox), [cutoff, batch])).rowCount ?? 0;
  return sqliteTaskWriter().conn.prepare(sqliteSql(outbox)).run(cutoff, batch).changes;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Deletes the rows of every outbox that finished before `now - retentionMs`, `batch` per statement. */
export async function pruneFinishedOutbox(retentionMs: number, now = new Date(), batch = BATCH): Promise<PrunedCounts> {
  const cutoff = sqliteTime(new Date(now.getTime() - retentionMs));
  const pruned = Object.fromEntries(OUTBOXES.map((o) => [o, 0])) as PrunedCounts;
  for (const outbox of OUTBOXES) {
    for (;;) {
      const deleted = await deleteBatch(outbox, cutoff, batch);
      pruned[outbox] += deleted;
      if (deleted < batch) break;
      await nextTurn(); // let the writer and the requests in between batches
    }
  }
  return pruned;
}

async function pruneNow(retentionMs: number): Promise<void> {
  try {
    const pruned = await pruneFinishedOutbox(retentionMs);
    if (pruned.PushDelivery || pruned.NotificationDelivery) log.info('finished outbox rows pruned', { pushDeliveries: pruned.PushDelivery, notifications: pruned.NotificationDelivery });
  } catch (err) {
    log.warn('pruning finished outbox rows failed; again at the next run', { error: errorMessage(err) });
  }
}

/** Boot: prunes now, then every hour (or every retention, if shorter); once per process. */
export function startOutboxPruner(retentionMs: number): void {
  processSingleton('outbox-pruner', () => {
    let running = false;
    const run = () => {
      if (running) return; // a slow run (a large backlog) is not started twice
      running = true;
      void pruneNow(retentionMs).finally(() => (running = false));
    };
    run();
    const timer = setInterval(run, Math.min(MAX_INTERVAL_MS, retentionMs));
    timer.unref();
    return timer;
  });
}
