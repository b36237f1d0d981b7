/**
 * Applies one live event to a cached TaskDetail, the way the server would have built it:
 * state from status/detached events, artifacts accumulated by artifactId (append:true
 * concatenates, design §1 rule 6), history from messages. Events at or below the detail's
 * lastSeq are ignored, so a replay after a reconnect can never apply anything twice.
 */
import { accumulateArtifacts } from '@/lib/protocol/artifacts';
import type { ArtifactChunk, Message, Part, TaskState } from '@/lib/protocol/types';
import { compactEvent, displayStateOf, isTerminal, type TaskDetail, type TimelineEvent } from '@/lib/dashboard/wire';

interface StatusPayload {
  message?: Message;
  reason?: string;
}

function textOfMessage(message: Message | undefined): string {
  if (!message || !Array.isArray(message.parts)) return '';
  return message.parts
    .filter((p: Part): p is Extract<Part, { kind: 'text' }> => p.kind === 'text')
    .map((p) => p.text)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function withArtifactChunk(snapshot: TaskDetail['snapshot'], chunk: ArtifactChunk): TaskDetail['snapshot'] {
  const id = chunk.artifact?.artifactId;
  // Copy only the artifact this chunk touches; accumulateArtifacts appends into it in place.
  const current = (snapshot.artifacts ?? []).map((a) => (a.artifactId === id ? { ...a, parts: [...a.parts] } : a));
  return { ...snapshot, artifacts: accumulateArtifacts([chunk], current) };
}

type LiveState = Pick<TaskDetail, 'task' | 'snapshot'>;

function applyOne(detail: LiveState, event: TimelineEvent): LiveState {
  let { task, snapshot } = detail;
  task = { ...task, lastSeq: event.seq, updatedAt: event.at };
  const payload = (event.payload ?? {}) as StatusPayload;
  if (event.type === 'status' && event.state) {
    const state = event.state as TaskState;
    task = { ...task, state };
    if (payload.message) task.statusText = textOfMessage(payload.message);
    if (isTerminal(state)) task = { ...task, endedAt: event.at, endReason: payload.reason ?? null };
    const keep = payload.message && (isTerminal(state) || state === 'input-required' || state === 'auth-required');
    snapshot = {
      ...snapshot,
      status: { state, timestamp: event.at, ...(payload.message ? { message: payload.message } : {}) },
      history: keep ? [...(snapshot.history ?? []), payload.message as Message] : snapshot.history,
    };
  } else if (event.type === 'detached') {
    task = { ...task, detached: true, detachedAt: event.at, statusText: textOfMessage(payload.message) || task.statusText };
  } else if (event.type === 'message' && payload.message) {
    task = { ...task, detached: false };
    snapshot = { ...snapshot, history: [...(snapshot.history ?? []), payload.message] };
  } else if (event.type === 'artifact') {
    snapshot = withArtifactChunk(snapshot, event.payload as ArtifactChunk);
  }
  task.displayState = displayStateOf(task.state, task.detached);
  return { task, snapshot };
}

export function applyTaskEvents(detail: TaskDetail, events: TimelineEvent[]): TaskDetail {
  let live: LiveState = { task: detail.task, snapshot: detail.snapshot };
  const added: TimelineEvent[] = [];
  for (const event of events) {
    if (event.seq <= live.task.lastSeq) continue;
    live = applyOne(live, event);
    added.push(compactEvent(event));
  }
  return added.length ? { ...detail, ...live, events: [...detail.events, ...added] } : detail;
}
