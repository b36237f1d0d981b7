/**
 * One task for the task page: its summary, the A2A snapshot and every event up to the
 * snapshot's seq, read so that the three agree. The page then follows the task from that seq
 * on (GET /api/tasks/:id/events?after=<seq>), so nothing is shown twice or skipped.
 */
import { findTask, listEvents } from '../db/task-repo';
import type { StoredEvent, TaskRecord } from '../db/task-records';
import { buildTask } from '../engine';
import { accumulateArtifacts } from '../protocol/artifacts';
import { isTerminalState } from '../protocol/types';
import { toTaskSummary } from './task-summary';
import { listChildTasks } from '../db/task-graph';
import { parentFromMetadata, traceIdOf } from '../protocol/trace-context';
import { compactEvent, type TaskDetail, type TimelineEvent } from './wire';

export function toTimelineEvent(event: StoredEvent): TimelineEvent {
  const { taskId, ...timeline } = event;
  void taskId;
  return timeline;
}

/** Events 1..record.lastSeq: the row may be read after more events were appended, never before. */
async function eventsUpTo(record: TaskRecord, first: StoredEvent[]): Promise<StoredEvent[]> {
  const last = first.length ? first[first.length - 1].seq : 0;
  const more = last < record.lastSeq ? await listEvents(record.id, last) : [];
  return [...first, ...more].filter((e) => e.seq <= record.lastSeq);
}

/** `compact: false` keeps every artifact chunk's content (an export); the task page compacts them. */
export async function loadTaskDetail(taskId: string, { compact = true } = {}): Promise<TaskDetail | null> {
  const first = await listEvents(taskId, 0);
  const record = await findTask(taskId);
  if (!record) return null;
  const events = await eventsUpTo(record, first);
  const terminal = isTerminalState(record.state);
  // A running task's artifacts are derived from exactly these events, so the snapshot and the
  // timeline agree on the seq; an ended task's were materialised by the terminal claim.
  const snapshot = await buildTask(record, { includeArtifacts: terminal });
  if (!terminal) {
    snapshot.artifacts = accumulateArtifacts(events.flatMap((e) => (e.type === 'artifact' ? [e.payload] : [])));
  }
  const children = await listChildTasks(record.id);
  const parent = record.direction === 'inbound' ? parentFromMetadata(firstMessageMetadata(events)) : undefined;
  return {
    task: {
      ...toTaskSummary(record), requestText: record.requestText, remoteTaskId: record.remoteTaskId, metadata: record.metadata,
      traceId: traceIdOf(record.traceContext), parentTaskId: record.parentTaskId,
      callerParent: parent && parent.taskId !== record.parentTaskId ? { taskId: parent.taskId, url: parent.url ?? null } : null,
    },
    children,
    snapshot,
    events: events.map((e) => (compact ? compactEvent(toTimelineEvent(e)) : toTimelineEvent(e))),
  };
}

/** The metadata of the message that created the task (where a calling hub names the parent). */
function firstMessageMetadata(events: StoredEvent[]): Record<string, unknown> | undefined {
  const payload = events[0]?.type === 'submitted' ? (events[0].payload as { message?: { metadata?: Record<string, unknown> } }) : undefined;
  return payload?.message?.metadata;
}
