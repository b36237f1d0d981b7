/**
 * Following a task's events live: catch-up from the database after a given seq, then live events
 * from the hub, with no gap and no duplicate. Used by A2A streams and blocking sends (bounded by
 * the response window) and by the dashboard's SSE (bounded by the task's end).
 */
import { eventHub } from '../../events/hub';
import { listEvents } from '../../db/task-repo';
import type { StoredEvent } from '../../db/task-records';
import { isTerminalState, isTurnEndState } from '../../protocol/types';
import { executions } from './executions';
import { slicedTimeout } from '../../util/turn-slices';

export type ObservationEnd = 'ended' | 'window' | 'aborted' | 'shutdown';

export interface ObserveOptions {
  afterSeq: number;
  /** 'turn' stops at a terminal or interrupted state (A2A); 'terminal' only at a terminal one. */
  until: 'turn' | 'terminal';
  /** Stop with 'window' after this long (the response window). */
  windowMs?: number;
  signal?: AbortSignal;
}

export function endsObservation(event: StoredEvent, until: 'turn' | 'terminal'): boolean {
  if (event.type !== 'status' || !event.state) return false;
  return until === 'turn' ? isTurnEndState(event.state) : isTerminalState(event.state);
}

/**
 * The events of a task as they commit, in batches: whatever arrived together (one group commit
 * holds up to hundreds of a stream's chunks) is handed over in one step, so a consumer pays its
 * per-step costs (promises, SSE writes) per batch rather than per event.
 */
export async function* observeTaskBatches(taskId: string, opts: ObserveOptions): AsyncGenerator<StoredEvent[], ObservationEnd> {
  const queue: StoredEvent[] = [];
  let wake: (() => void) | null = null;
  let stop: ObservationEnd | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  const unsubscribe = eventHub().subscribeTask(taskId, (event) => {
    queue.push(event);
    notify();
  });
  // Sliced: hundreds of windows that end together are handled a slice per turn (decision 405).
  const timer = opts.windowMs !== undefined ? slicedTimeout(() => ((stop ??= 'window'), notify()), opts.windowMs) : undefined;
  const onAbort = () => ((stop ??= 'aborted'), notify());
  const onShutdown = () => ((stop ??= 'shutdown'), notify());
  const shutdown = executions().shutdown.signal;
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  shutdown.addEventListener('abort', onShutdown, { once: true });
  if (opts.signal?.aborted) stop = 'aborted';
  if (shutdown.aborted) stop ??= 'shutdown';
  let lastSeq = opts.afterSeq;
  let ended = false;
  // The unseen events of `events`, in order, up to and including the one that ends the observation.
  const take = (events: StoredEvent[]): StoredEvent[] => {
    const batch: StoredEvent[] = [];
    for (const event of events) {
      if (event.seq <= lastSeq) continue;
      lastSeq = event.seq;
      batch.push(event);
      if (endsObservation(event, opts.until)) {
        ended = true;
        break;
      }
    }
    return batch;
  };
  try {
    const caughtUp = take(await listEvents(taskId, opts.afterSeq));
    if (caughtUp.length) yield caughtUp;
    while (!ended) {
      if (queue.length) {
        const batch = take(queue.splice(0));
        if (batch.length) yield batch;
        continue;
      }
      if (stop) return stop;
      await new Promise<void>((resolve) => (wake = resolve));
    }
    return 'ended';
  } finally {
    unsubscribe();
    timer?.clear();
    opts.signal?.removeEventListener('abort', onAbort);
    shutdown.removeEventListener('abort', onShutdown);
  }
}

/**
 * The committed events after `afterSeq` through `throughSeq`, cut after one that ends the
 * observation. What an observer that stopped at its window still owes its caller: events that
 * committed in the same instant as the window's end are in the log, so they are read from it
 * (the log is the truth, the live queue may not have them yet).
 */
export async function committedThrough(
  taskId: string,
  afterSeq: number,
  throughSeq: number,
  until: 'turn' | 'terminal',
): Promise<{ events: StoredEvent[]; ended: boolean }> {
  const events: StoredEvent[] = [];
  if (throughSeq <= afterSeq) return { events, ended: false };
  for (const event of await listEvents(taskId, afterSeq)) {
    if (event.seq > throughSeq) break;
    events.push(event);
    if (endsObservation(event, until)) return { events, ended: true };
  }
  return { events, ended: false };
}

/** observeTaskBatches one event at a time, for consumers that handle each on its own. */
export async function* observeTask(taskId: string, opts: ObserveOptions): AsyncGenerator<StoredEvent, ObservationEnd> {
  const batches = observeTaskBatches(taskId, opts);
  try {
    for (;;) {
      const step = await batches.next();
      if (step.done) return step.value;
      yield* step.value;
    }
  } finally {
    await batches.return('aborted');
  }
}
