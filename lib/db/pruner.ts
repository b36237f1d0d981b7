/**
 * The pruner: the one schedule that keeps the database from growing forever. At start-up, then
 * every hour (or every retention, if one is shorter), it deletes finished outbox rows older than
 * SWITCHBOARD_OUTBOX_RETENTION (outbox-pruner.ts) and, when SWITCHBOARD_TASK_RETENTION is set,
 * finished tasks older than it (task-pruner.ts). Both in bounded batches (prune-batches.ts). On
 * PostgreSQL it also folds the per-connection task tallies into one row per key (task-tallies.ts).
 */
import { pruneFinishedOutbox } from './outbox-pruner';
import { pruneFinishedTasks } from './task-pruner';
import { foldTaskTallies } from './task-tallies';
import { processSingleton } from '../process-singleton';
import { errorMessage, log } from '../log';

const MAX_INTERVAL_MS = 3_600_000;

export interface Retention {
  outboxMs: number;
  /** Unset: tasks are kept forever. */
  taskMs?: number;
}

async function pruneNow(retention: Retention): Promise<void> {
  try {
    await foldTaskTallies();
  } catch (err) {
    log.warn('folding task tallies failed; again at the next run', { error: errorMessage(err) });
  }
  try {
    const pruned = await pruneFinishedOutbox(retention.outboxMs);
    if (pruned.PushDelivery || pruned.NotificationDelivery) log.info('finished outbox rows pruned', { pushDeliveries: pruned.PushDelivery, notifications: pruned.NotificationDelivery });
  } catch (err) {
    log.warn('pruning finished outbox rows failed; again at the next run', { error: errorMessage(err) });
  }
  if (retention.taskMs === undefined) return;
  try {
    const tasks = await pruneFinishedTasks(retention.taskMs);
    if (tasks) log.info('finished tasks pruned', { tasks });
  } catch (err) {
    log.warn('pruning finished tasks failed; again at the next run', { error: errorMessage(err) });
  }
}

/** Boot: prunes now, then every hour (or every retention, if shorter); once per process. */
export function startPruner(retention: Retention): void {
  processSingleton('pruner', () => {
    let running = false;
    const run = () => {
      if (running) return; // a slow run (a large backlog) is not started twice
      running = true;
      void pruneNow(retention).finally(() => (running = false));
    };
    run();
    const timer = setInterval(run, Math.min(MAX_INTERVAL_MS, retention.outboxMs, retention.taskMs ?? Infinity));
    timer.unref();
    return timer;
  });
}
