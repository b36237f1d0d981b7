/**
 * The task page's live stream, with resubscribe semantics: a snapshot first, then
 * every later event, closed once the task is terminal. Each event's SSE id is its seq; a client
 * that comes back with Last-Event-ID (or ?after=) gets the missed events replayed from the
 * database instead of a new snapshot, through observeTask's gapless catch-up.
 */
import { findTask, listEvents } from '../db/task-repo';
import { observeTask } from '../engine';
import { isTerminalState } from '../protocol/types';
import { ClientError } from '../protocol/client-error';
import { encodeFrame } from '../protocol/sse-frames';
import { loadTaskDetail, toTimelineEvent } from './task-detail';
import { TASK_STREAM_EVENTS, type TaskStreamEnd } from './wire';

function eventFrame(event: Parameters<typeof toTimelineEvent>[0]): string {
  return encodeFrame({ event: TASK_STREAM_EVENTS.event, id: event.seq, data: toTimelineEvent(event) });
}

async function endFrame(taskId: string): Promise<string> {
  const record = await findTask(taskId);
  const data: TaskStreamEnd = { state: record?.state ?? 'unknown', lastSeq: record?.lastSeq ?? 0 };
  return encodeFrame({ event: TASK_STREAM_EVENTS.end, id: data.lastSeq, data });
}

/**
 * Frames for one subscriber. `afterSeq` null means a first connection (snapshot first). Throws
 * a ClientError (404) on its first step, so the route can answer 404 before streaming.
 */
export async function* taskStreamFrames(taskId: string, afterSeq: number | null, signal: AbortSignal): AsyncGenerator<string> {
  let after = afterSeq;
  if (after === null) {
    const detail = await loadTaskDetail(taskId);
    if (!detail) throw new ClientError(404, 'not_found', `no task ${taskId}`);
    yield encodeFrame({ event: TASK_STREAM_EVENTS.snapshot, id: detail.task.lastSeq, data: detail });
    after = detail.task.lastSeq;
    if (isTerminalState(detail.task.state)) {
      yield await endFrame(taskId);
      return;
    }
  } else {
    const record = await findTask(taskId);
    if (!record) throw new ClientError(404, 'not_found', `no task ${taskId}`);
    if (isTerminalState(record.state)) {
      // Nothing follows a terminal event; replay what the client missed and close.
      for (const event of await listEvents(taskId, after)) yield eventFrame(event);
      yield await endFrame(taskId);
      return;
    }
  }
  const events = observeTask(taskId, { afterSeq: after, until: 'terminal', signal });
  let end: string = 'aborted';
  for (;;) {
    const step = await events.next();
    if (step.done) {
      end = step.value;
      break;
    }
    yield eventFrame(step.value);
  }
  if (end === 'ended') yield await endFrame(taskId);
}
