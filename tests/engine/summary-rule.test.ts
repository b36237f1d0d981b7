/**
 * Issue 13 §1: one rule for how an event changes a task's summary. The server's row (what the
 * list and the feed show) and the browser's reducer (what the task page shows live) must agree
 * after every event, in particular after an outbound follow-up: a caller's new message starts
 * a new turn, so the task is no longer detached; a message the peer sent is not a new turn.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from '../support/in-process';
import type { NewEvent, TaskPatch } from '../../lib/db/task-records';

let writer: typeof import('../../lib/engine/task-writer');
let detail: typeof import('../../lib/dashboard/task-detail');
let reducer: typeof import('../../lib/query/task-reducer');

beforeAll(async () => {
  await freshStore();
  writer = await import('../../lib/engine/task-writer');
  detail = await import('../../lib/dashboard/task-detail');
  reducer = await import('../../lib/query/task-reducer');
});

const message = (role: 'user' | 'agent', text: string) => ({ kind: 'message' as const, messageId: crypto.randomUUID(), role, parts: [{ kind: 'text' as const, text }] });

const SUMMARY_FIELDS = ['state', 'displayState', 'detached', 'statusText', 'endReason', 'lastSeq'] as const;
const summaryOf = (d: { task: Record<string, unknown> }) => Object.fromEntries(SUMMARY_FIELDS.map((k) => [k, d.task[k]]));

/** Appends `events`; returns the server's detail afterwards and the browser's (reducer) view. */
async function step(taskId: string, events: NewEvent[], patch: TaskPatch = {}) {
  const before = (await detail.loadTaskDetail(taskId))!;
  await writer.recordEvents(taskId, events, { patch });
  const after = (await detail.loadTaskDetail(taskId))!;
  const live = reducer.applyTaskEvents(before, after.events.filter((e) => e.seq > before.task.lastSeq));
  return { server: summaryOf(after), browser: summaryOf(live) };
}

describe('event → task summary, server and browser', () => {
  it('an outbound follow-up clears detached on both sides; a peer message does not', async () => {
    const id = crypto.randomUUID();
    const ask = message('user', 'greet me');
    await writer.createTaskRecord({ id, contextId: crypto.randomUUID(), direction: 'outbound', peerName: 'b', state: 'submitted', requestText: 'greet me' }, [
      { type: 'submitted', state: 'submitted', payload: { message: ask, mode: 'blocking' } },
    ]);

    const detached = await step(id, [{ type: 'detached', state: 'working', payload: { reason: 'client timeout after 0.5 s' } }], { state: 'working' });
    expect(detached.server).toMatchObject({ detached: true, displayState: 'detached' });
    expect(detached.browser).toEqual(detached.server);

    const peerSaid = await step(id, [{ type: 'message', payload: { message: message('agent', 'thinking'), remote: true } }]);
    expect(peerSaid.server).toMatchObject({ detached: true });
    expect(peerSaid.browser).toEqual(peerSaid.server);

    const asking = message('agent', 'What is your name?');
    const question = await step(id, [{ type: 'status', state: 'input-required', payload: { message: asking } }], { state: 'input-required', statusMessage: asking });
    expect(question.server).toMatchObject({ state: 'input-required', displayState: 'detached', statusText: 'What is your name?' });
    expect(question.browser).toEqual(question.server);

    // What lib/engine/outbound/dispatch.ts followUp records.
    const followUp = await step(id, [
      { type: 'message', payload: { message: message('user', 'Ada'), mode: 'blocking' } },
      { type: 'status', state: 'working', payload: {} },
    ], { state: 'working', statusMessage: null });
    expect(followUp.server).toMatchObject({ state: 'working', displayState: 'working', detached: false });
    expect(followUp.browser).toEqual(followUp.server);
  });
});
