/**
 * Following a task for one MCP call without polling the database: the call subscribes to the
 * event hub (lib/events/hub.ts) for its task and sleeps until an event past its cursor is
 * published (or the time is up, or the client cancels). The database is read only when the call
 * starts and after each wake-up, so a quiet task costs no query however long the wait.
 */
import { eventHub } from '../events/hub';
import { linkedSignal, untilAborted } from '../util/abortable';
import { hasNews, readTaskState, type Cursor, type TaskState } from './task-view';
import { isTurnEndState } from '../protocol/types';

export interface FollowOptions {
  since: Cursor;
  seconds: number;
  /** 'change': return at the first news (wait); 'turn-end': only when the turn is over (dispatch, reply). */
  until: 'change' | 'turn-end';
  signal?: AbortSignal;
  /** Called with the task after each wake-up that brought news (progress notifications). */
  onNews?: (task: TaskState) => void | Promise<void>;
}

export class UnknownTaskError extends Error {
  constructor(readonly taskId: string) {
    super(`taskId: no task ${taskId}`);
  }
}

/** Resolves once an event past `afterSeq` of the task is published here, or never. */
function nextEvent(taskId: string, afterSeq: number): { promise: Promise<void>; stop: () => void } {
  let stop = () => undefined as void;
  const promise = new Promise<void>((resolve) => {
    stop = eventHub().subscribeTask(taskId, (event) => {
      if (event.seq > afterSeq) resolve();
    });
  });
  return { promise, stop };
}

const done = (task: TaskState, opts: FollowOptions) => (opts.until === 'change' ? hasNews(task, opts.since) : isTurnEndState(task.state));

/** The task once it has news for the caller (or its turn ended), or as it is when time is up. */
export async function followTask(taskId: string, opts: FollowOptions): Promise<TaskState> {
  const limit = linkedSignal([opts.signal], { ms: opts.seconds * 1000, reason: () => new Error('wait time is up') });
  try {
    let seen = opts.since.seq;
    let woken = false;
    for (;;) {
      // Subscribe before reading, so an event committed in between is not missed.
      const next = nextEvent(taskId, seen);
      try {
        const task = await readTaskState(taskId);
        if (!task) throw new UnknownTaskError(taskId);
        if (woken && task.lastSeq > seen) await opts.onNews?.(task);
        if (done(task, opts) || limit.signal.aborted) return task;
        seen = task.lastSeq;
        // A quiet task: no query until an event arrives; at the time limit the task is as read.
        const woke = await untilAborted(next.promise, limit.signal);
        if (woke.aborted) return task;
        woken = true;
      } finally {
        next.stop();
      }
    }
  } finally {
    limit.dispose();
  }
}
