/**
 * Following a task's events live: catch-up from the database after a given seq, then live events
 * from the hub, with no gap and no duplicate. Used by A2A streams and blocking sends (bounded by
 * the response window) and by the dashboard's SSE (bounded by the task's end).
 */
import { eventHub } from '../events/hub';
import { listEvents } from '../db/task-repo';
import type { StoredEvent } from '../db/task-records';
import { isTerminalState, isTurnEndState } from '../protocol/types';
import { executions } from './executions';

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

export async function* observeTask(taskId: string, opts: ObserveOptions): AsyncGenerator<StoredEvent, ObservationEnd> {
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
  const timer = opts.windowMs !== undefined ? setTimeout(() => ((stop ??= 'window'), notify()), opts.windowMs) : undefined;
  const onAbort = () => ((stop ??= 'aborted'), notify());
  const onShutdown = () => ((stop ??= 'shutdown'), notify());
  const shutdown = executions().shutdown.signal;
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  shutdown.addEventListener('abort', onShutdown, { once: true });
  if (opts.signal?.aborted) stop = 'aborted';
  if (shutdown.aborted) stop ??= 'shutdown';
  let lastSeq = opts.afterSeq;
  try {
    for (const event of await listEvents(taskId, opts.afterSeq)) {
      lastSeq = event.seq;
      yield event;
      if (endsObservation(event, opts.until)) return 'ended';
    }
    for (;;) {
      while (queue.length) {
        const event = queue.shift()!;
        if (event.seq <= lastSeq) continue;
        lastSeq = event.seq;
        yield event;
        if (endsObservation(event, opts.until)) return 'ended';
      }
      if (stop) return stop;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    unsubscribe();
    if (timer) clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
    shutdown.removeEventListener('abort', onShutdown);
  }
}
