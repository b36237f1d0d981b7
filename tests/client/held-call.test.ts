/**
 * No false end reason: a background dispatch to a v1.0 peer that holds the call past
 * our client timeout (Hermes ignores returnImmediately) and lists tasks without history. In a
 * context minted for this dispatch the only listed task is ours: it is adopted and followed to
 * its result. In a context the operator named, it cannot be told apart: the task ends with an
 * honest "lost contact" reason, never "the peer has no task".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { startHoldingPeer, HELD_RESULT, type HoldingPeer } from '../support/holding-peer';
import { artifactText, dispatch, waitForTask } from '../support/dispatch-api';

let app: AppServer;
let peer: HoldingPeer;

beforeAll(async () => {
  [app, peer] = await Promise.all([startApp(), startHoldingPeer()]);
});
afterAll(async () => {
  await Promise.all([app?.stop(), peer?.close()]);
});

const notes = (view: Awaited<ReturnType<typeof waitForTask>>, event: string) => view.events.filter((e) => e.type === 'remote' && (e.payload as { event?: string }).event === event);

describe('background dispatch, the peer holds the call past our timeout', () => {
  it("adopts the only task in the context minted for this dispatch and follows it to the peer's result", async () => {
    const taskId = await dispatch(app.url, { url: peer.url, text: 'hold 2500 ms', mode: 'background', timeoutSeconds: 1 });
    const view = await waitForTask(app.url, taskId);
    expect(view.task.endReason).toBeNull();
    expect(view.task.state).toBe('completed');
    expect(artifactText(view)).toBe(HELD_RESULT);
    expect(notes(view, 'adopted')).toHaveLength(1);
  });

  it('in a context the operator named, ends with an honest lost-contact reason', async () => {
    const taskId = await dispatch(app.url, { url: peer.url, text: 'hold 2500 ms', mode: 'background', timeoutSeconds: 1, contextId: `ctx-${crypto.randomUUID()}` });
    const view = await waitForTask(app.url, taskId);
    expect(view.task.state).toBe('failed');
    expect(view.task.endReason).toMatch(/^lost contact with the peer: our client timeout \(1 s\)/);
    expect(view.task.endReason).not.toMatch(/has no task/);
    expect(notes(view, 'adopted')).toEqual([]);
  });
});
