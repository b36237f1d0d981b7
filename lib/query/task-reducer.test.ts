import { describe, expect, it } from 'vitest';
import type { TaskDetail, TimelineEvent } from '@/lib/dashboard/wire';
import { applyTaskEvents } from './task-reducer';

function detail(): TaskDetail {
  return {
    task: {
      id: 't1', contextId: 'c1', direction: 'inbound', agentSlug: 'slow', owner: { id: 'anonymous', name: 'anonymous' }, peerName: null, peerUrl: null,
      state: 'working', displayState: 'working', detached: false, requestPreview: 'work', statusText: '', endReason: null,
      lastSeq: 2, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', endedAt: null, detachedAt: null,
      requestText: 'work', remoteTaskId: null, metadata: null, traceId: null, parentTaskId: null, callerParent: null,
    },
    children: [],
    snapshot: { kind: 'task', id: 't1', contextId: 'c1', status: { state: 'working' }, history: [], artifacts: [] },
    events: [],
  };
}

const chunk = (seq: number, text: string, append: boolean): TimelineEvent => ({
  seq, type: 'artifact', state: null, at: `2026-01-01T00:00:0${seq}.000Z`,
  payload: { artifact: { artifactId: 'result', parts: [{ kind: 'text', text }] }, append },
});

describe('applyTaskEvents', () => {
  it("shows a peer's final artifact in place of the streamed one, never both", () => {
    const rendered: TimelineEvent = {
      seq: 5, type: 'artifact', state: null, at: '2026-01-01T00:00:05.000Z',
      payload: { artifact: { artifactId: 'rendered', parts: [{ kind: 'text', text: 'ab' }] }, append: false, lastChunk: true, replaceAll: true },
    };
    const next = applyTaskEvents(detail(), [chunk(3, 'a', false), chunk(4, 'b', true), rendered]);
    expect(next.snapshot.artifacts).toEqual([{ artifactId: 'rendered', parts: [{ kind: 'text', text: 'ab' }] }]);
  });

  it('accumulates append:true chunks into one artifact and compacts them in the timeline', () => {
    const next = applyTaskEvents(detail(), [chunk(3, 'a', false), chunk(4, 'b', true), chunk(5, 'c', true)]);
    expect(next.snapshot.artifacts?.[0].parts.map((p) => (p.kind === 'text' ? p.text : '')).join('')).toBe('abc');
    expect(next.events.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(next.events[0].payload).toMatchObject({ compacted: true, textLength: 1 });
    expect(next.task.lastSeq).toBe(5);
  });

  it('ignores events it already has (a replay after a reconnect)', () => {
    const once = applyTaskEvents(detail(), [chunk(3, 'a', false)]);
    const twice = applyTaskEvents(once, [chunk(3, 'a', false), chunk(4, 'b', true)]);
    expect(twice.snapshot.artifacts?.[0].parts).toEqual([{ kind: 'text', text: 'ab' }]);
    expect(twice.events.map((e) => e.seq)).toEqual([3, 4]);
    expect(applyTaskEvents(twice, [chunk(2, 'x', true)])).toBe(twice);
  });

  it('shows detached, then the terminal state with its reason', () => {
    const detachedAt = '2026-01-01T00:00:03.000Z';
    const d = applyTaskEvents(detail(), [{ seq: 3, type: 'detached', state: 'working', at: detachedAt, payload: { reason: 'response window ended' } }]);
    expect(d.task.displayState).toBe('detached');
    const failed = applyTaskEvents(d, [{ seq: 4, type: 'status', state: 'failed', at: '2026-01-01T00:00:04.000Z', payload: { reason: 'interrupted: restart' } }]);
    expect(failed.task).toMatchObject({ state: 'failed', displayState: 'failed', endReason: 'interrupted: restart' });
    expect(failed.task.endedAt).toBe('2026-01-01T00:00:04.000Z');
  });

  it('a follow-up (the caller\'s message) clears detached; a message from the peer does not', () => {
    const msg = (role: 'user' | 'agent', text: string) => ({ kind: 'message' as const, messageId: `m-${text}`, role, parts: [{ kind: 'text' as const, text }] });
    const d = applyTaskEvents(detail(), [{ seq: 3, type: 'detached', state: 'working', at: '2026-01-01T00:00:03.000Z', payload: { reason: 'client timeout' } }]);
    const peer = applyTaskEvents(d, [{ seq: 4, type: 'message', state: null, at: '2026-01-01T00:00:04.000Z', payload: { message: msg('agent', 'thinking'), remote: true } }]);
    expect(peer.task).toMatchObject({ detached: true, displayState: 'detached' });
    const followUp = applyTaskEvents(peer, [
      { seq: 5, type: 'message', state: null, at: '2026-01-01T00:00:05.000Z', payload: { message: msg('user', 'Ada'), mode: 'blocking' } },
      { seq: 6, type: 'status', state: 'working', at: '2026-01-01T00:00:05.000Z', payload: {} },
    ]);
    expect(followUp.task).toMatchObject({ detached: false, displayState: 'working', statusText: '' });
  });
});
