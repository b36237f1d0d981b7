import { describe, expect, it } from 'vitest';
import type { TaskDetail, TimelineEvent } from '../dashboard/wire';
import { Follower, type FollowView } from './follow';

function recordingView() {
  const events: TimelineEvent[] = [];
  const view: FollowView = { onTask: () => undefined, onEvent: (e) => events.push(e), onArtifacts: () => undefined, onReconnecting: () => undefined };
  return { view, events };
}

const MESSAGE = { kind: 'message', messageId: 'm1', role: 'agent', parts: [{ kind: 'text', text: 'working for 5 s' }] };
const PAYLOADS: Record<string, unknown> = {
  submitted: { message: { ...MESSAGE, role: 'user' } },
  status: { message: MESSAGE },
  detached: { reason: 'response window' },
  artifact: { compacted: true, artifactId: 'a1', append: true, lastChunk: false, textLength: 3 },
};
const event = (seq: number, type: string, state: string | null = null): TimelineEvent =>
  ({ seq, type, state, at: new Date(0).toISOString(), payload: PAYLOADS[type] }) as TimelineEvent;

function snapshot(lastSeq: number, events: TimelineEvent[]): string {
  const task = {
    id: 't1', contextId: 'c1', direction: 'outbound', agentSlug: null, owner: null, peerName: 'slow', peerUrl: null, state: 'working',
    displayState: 'working', detached: false, requestPreview: '', statusText: 'working for 5 s', endReason: null, lastSeq,
    createdAt: new Date(0).toISOString(), updatedAt: new Date(0).toISOString(), endedAt: null, detachedAt: null,
    requestText: '', remoteTaskId: null, metadata: null, traceId: null, parentTaskId: null, callerParent: null,
  };
  const detail = { task, children: [], snapshot: { id: 't1', contextId: 'c1', status: { state: 'working' }, kind: 'task' }, events } as unknown as TaskDetail;
  return JSON.stringify(detail);
}

describe('Follower', () => {
  it('shows the events a snapshot already holds: a fast first status is not lost before the live events', () => {
    const { view, events } = recordingView();
    const follower = new Follower(view);
    follower.handle('snapshot', snapshot(3, [event(1, 'submitted'), event(2, 'status', 'working'), event(3, 'artifact')]));
    expect(events.map((e) => [e.seq, e.type])).toEqual([[1, 'submitted'], [2, 'status']]);
  });

  it('after a reconnect, only what came after the last seq seen', () => {
    const { view, events } = recordingView();
    const follower = new Follower(view);
    follower.handle('snapshot', snapshot(2, [event(1, 'submitted'), event(2, 'status', 'working')]));
    follower.handle('snapshot', snapshot(4, [event(1, 'submitted'), event(2, 'status', 'working'), event(3, 'detached'), event(4, 'status', 'working')]));
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
  });
});
