/**
 * The pruner: the one schedule that keeps the database from growing forever. At start-up, then
 * every hour (or every retention, if one is shorter), it deletes finished outbox rows older than
 * SWITCHBOARD_OUTBOX_RETENTION (outbox-pruner.ts) and, when SWITCHBOARD_TASK_RETENTION is set,
 * finished tasks older than it (task-pruner.ts), and operator audit entries older than
 * SWITCHBOARD_AUDIT_RETENTION (audit-repo.ts). All in bounded batches (prune-batches.ts). It
 * also folds the store's task tallies (Store.foldTaskTallies: PostgreSQL's per-connection rows
 * into one per key) and drops hourly tally rows that count nothing, a batch a run.
 */
import { pruneFinishedOutbox } from './outbox-pruner';
import { pruneFinishedTasks } from './task-pruner';
import { pruneAuditEntries } from './audit-repo';
import { store } from './store';
import { errorMessage, log } from '../log';
import { settledWithin } from '../util/abortable';

const MAX_INTERVAL_MS = 3_600_000;
/** Hourly tally rows at zero dropped a run (Store.foldTaskTallies): more than an hour makes. */
const EMPTY_TALLY_ROWS = 10_000;

export interface Retention {
  outboxMs: number;
  /** Unset: tasks are kept forever. */
  taskMs?: number;
  /** Unset (tests, tools): audit entries are kept. */
  auditMs?: number;
}

async function pruneAudit(retentionMs: number): Promise<void> {
  try {
    const entries = await pruneAuditEntries(retentionMs);
    if (entries) log.info('audit entries pruned', { entries });
  } catch (err) {
    log.warn('pruning audit entries failed; again at the next run', { error: errorMessage(err) });
  }
}

async function pruneNow(retention: Retention): Promise<void> {
  try {
    await store().foldTaskTallies(EMPTY_TALLY_ROWS);
  } catch (err) {
    log.warn('folding task tallies failed; again at the next run', { error: errorMessage(err) });
  }
  try {
    const pruned = await pruneFinishedOutbox(retention.outboxMs);
    if (pruned.PushDelivery || pruned.NotificationDelivery) log.info('finished outbox rows pruned', { pushDeliveries: pruned.PushDelivery, notifications: pruned.NotificationDelivery });
  } catch (err) {
    log.warn('pruning finished outbox rows failed; again at the next run', { error: errorMessage(err) });
  }
  if (retention.auditMs !== undefined) await pruneAudit(retention.auditMs);
  if (retention.taskMs === undefined) return;
  try {
    const tasks = await pruneFinishedTasks(retention.taskMs);
    if (tasks) log.info('finished tasks pruned', { tasks });
  } catch (err) {
    log.warn('pruning finished tasks failed; again at the next run', { error: errorMessage(err) });
  }
}

/** How long the app's stop waits for a prune in progress (a large backlog must not hold up an exit). */
const STOP_WAIT_MS = 5_000;

export interface Pruner {
  /** Clears the timer and waits (briefly) for a run in progress: the app's stop, before it leaves the store. */
  stop(): Promise<void>;
}

/**
 * Start-up (lib/app/switchboard.ts, once per app): prunes now, then every hour (or every
 * retention, if shorter).
 */
export function startPruner(retention: Retention): Pruner {
  let running: Promise<void> | null = null;
  const run = () => {
    if (running) return; // a slow run (a large backlog) is not started twice
    running = pruneNow(retention).finally(() => (running = null));
  };
  run();
  const timer = setInterval(run, Math.min(MAX_INTERVAL_MS, retention.outboxMs, retention.taskMs ?? Infinity, retention.auditMs ?? Infinity));
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      if (running) await settledWithin(running, STOP_WAIT_MS);
    },
  };
}
