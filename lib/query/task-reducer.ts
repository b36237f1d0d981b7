/**
 * Applies one live event to a cached TaskDetail, the way the server would have built it:
 * state from status/detached events, artifacts accumulated by artifactId (append:true
 * concatenates), history from messages. Events at or below the detail's
 * lastSeq are ignored, so a replay after a reconnect can never apply anything twice.
 */
import { accumulateArtifacts } from '@/lib/protocol/artifacts';
import { statusTextOf, summaryChangeOf } from '@/lib/protocol/summary-rule';
import type { ArtifactChunk } from '@/lib/protocol/types';
import { isTerminalState } from '@/lib/protocol/types';
import { compactEvent, displayStateOf, type TaskDetail, type TimelineEvent } from '@/lib/dashboard/wire';

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
  // The summary fields change by the one rule the server's writer uses too.
  const { statusMessage, ...changed } = summaryChangeOf(event, event.at);
  task = { ...task, ...changed, ...(statusMessage !== undefined ? { statusText: statusTextOf(statusMessage) } : {}) };
  if (event.type === 'status' && changed.state) {
    const state = changed.state;
    const message = event.payload.message;
    const keep = message && (isTerminalState(state) || state === 'input-required' || state === 'auth-required');
    snapshot = {
      ...snapshot,
      status: { state, timestamp: event.at, ...(message ? { message } : {}) },
      history: keep ? [...(snapshot.history ?? []), message] : snapshot.history,
    };
  } else if (event.type === 'message') {
    snapshot = { ...snapshot, history: [...(snapshot.history ?? []), event.payload.message] };
  } else if (event.type === 'artifact' && !('compacted' in event.payload)) {
    snapshot = withArtifactChunk(snapshot, event.payload);
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
