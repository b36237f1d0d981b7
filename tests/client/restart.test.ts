/**
 * Restarts on either side while A follows a task at B.
 * - B dies (SIGKILL) mid-task and comes back on the same port: B's restart recovery ends the task
 *   FAILED `interrupted: restart`; A, which kept retrying (follow-error events, never FAILED on
 *   its own), records exactly that as a peer-reported failure.
 * - A dies mid-follow and comes back: it resumes following (tasks/get first) and records the
 *   COMPLETED result with every chunk.
 * - A dies in the `sent` phase: the peer took the message, but nothing it answered was
 *   recorded yet. A comes back, finds the peer's task by message id (v1.0 ListTasks) instead of
 *   sending again, and follows it to its real end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/a2a-clients';
import { startApp, type AppServer } from '../support/app-server';
import { artifactText, dispatch, readTask, waitForTask, type TaskView } from '../support/dispatch-api';
import { sdkChunkText, startSdkPeer, type SdkPeer } from '../support/sdk-peer';

let a: AppServer;
let b: AppServer;

beforeAll(async () => {
  [a, b] = await Promise.all([
    startApp({ SWITCHBOARD_CLIENT_TIMEOUT: '1.5' }),
    startApp({ SWITCHBOARD_RESPONSE_WINDOW: '1', SWITCHBOARD_LATE_RESULT_GRACE: '60' }),
  ]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

/** Waits until A follows the task at B and has logged at least one chunk. */
function followingWithChunks(taskId: string): Promise<TaskView> {
  return waitFor(async () => {
    const view = await readTask(a.url, taskId);
    return view.task.remoteTaskId !== null && view.events.some((e) => e.type === 'artifact') && view;
  }, 30_000);
}

const remoteNotes = (view: TaskView) => view.events.filter((e) => e.type === 'remote').map((e) => e.payload as { event?: string; phase?: string });

describe('B restarts while A follows', () => {
  it.each(['0.3', '1.0'])('over v%s A records B\'s real outcome: FAILED "interrupted: restart", reported by the peer', async (version) => {
    const taskId = await dispatch(a.url, { url: `${b.url}/a2a/slow`, text: 'work 30s chunks 30', mode: 'streaming', protocolVersion: version });
    const following = await followingWithChunks(taskId);
    await b.kill();
    // While B is down A keeps trying: transient errors are recorded, the task stays WORKING.
    // (Wait for an error recorded after the kill: the task was WORKING already, so waiting for
    // that state alone proved nothing.)
    const before = following.events.length;
    const down = await waitFor(async () => {
      const view = await readTask(a.url, taskId);
      return view.events.slice(before).some((e) => e.type === 'follow-error') && view;
    }, 30_000);
    expect(down.task.state).toBe('working');
    await b.restart();
    const mine = await waitForTask(a.url, taskId);
    expect(mine.task.state).toBe('failed');
    expect(mine.task.endReason).toBe('peer reported failed: interrupted: restart');
    expect(mine.events.filter((e) => e.type === 'status' && e.state === 'failed')).toHaveLength(1);
    const theirs = await readTask(b.url, following.task.remoteTaskId!);
    expect(theirs.task).toMatchObject({ state: 'failed', endReason: 'interrupted: restart' });
  });

  it('the transient errors while B was down were recorded as follow-error events', async () => {
    const taskId = await dispatch(a.url, { url: `${b.url}/a2a/slow`, text: 'work 30s chunks 30', mode: 'background', protocolVersion: '1.0' });
    const following = await followingWithChunks(taskId);
    expect(following.events.filter((e) => e.type === 'follow-error')).toEqual([]);
    await b.kill();
    // Only errors recorded after the kill count: they are what B being down caused.
    const view = await waitFor(async () => {
      const now = await readTask(a.url, taskId);
      return now.events.slice(following.events.length).some((e) => e.type === 'follow-error') && now;
    }, 30_000);
    expect(view.task.state).toBe('working');
    await b.restart();
    expect((await waitForTask(a.url, taskId)).task.endReason).toBe('peer reported failed: interrupted: restart');
  });
});

describe('A restarts while following', () => {
  it.each(['0.3', '1.0'])('over v%s A resumes after its restart and records COMPLETED with every chunk', async (version) => {
    const taskId = await dispatch(a.url, { url: `${b.url}/a2a/slow`, text: 'work 5s chunks 10', mode: 'streaming', protocolVersion: version });
    await followingWithChunks(taskId);
    await a.kill();
    await a.restart();
    const mine = await waitForTask(a.url, taskId);
    expect(mine.task.state).toBe('completed');
    expect(artifactText(mine, 'result').split('\n').filter(Boolean)).toHaveLength(10);
    const theirs = await readTask(b.url, mine.task.remoteTaskId!);
    expect(artifactText(mine, 'result')).toBe(artifactText(theirs, 'result'));
    expect(mine.events.some((e) => e.type === 'remote' && (e.payload as { event?: string }).event === 'resumed')).toBe(true);
  });
});

describe('A restarts in the sent phase', () => {
  let r: AppServer;
  let peer: SdkPeer;
  beforeAll(async () => {
    // A client timeout longer than the test: only the kill ends A's wait for the answer.
    [r, peer] = await Promise.all([startApp({ SWITCHBOARD_CLIENT_TIMEOUT: '120' }), startSdkPeer({ holdSends: true })]);
  });
  afterAll(async () => {
    await Promise.all([r?.stop(), peer?.close()]);
  });

  it('over v1.0 A finds the task the peer took (ListTasks), never sends again, and records its COMPLETED result', async () => {
    const sends = () => peer.requests.filter((q) => q.method === 'SendMessage').length;
    const taskId = await dispatch(r.url, { url: peer.url, text: 'chunks 3 every 100ms', mode: 'background', protocolVersion: '1.0' });
    await waitFor(async () => sends() === 1, 30_000);
    // The send went out (A saves the phase `sent` before sending) and nothing the peer said is recorded.
    const held = await readTask(r.url, taskId);
    expect(held.task).toMatchObject({ state: 'working', remoteTaskId: null });
    expect(held.events.map((e) => e.type)).toEqual(['submitted', 'status']);
    await r.kill();
    await r.restart();
    const view = await waitForTask(r.url, taskId);
    expect(view.task.state).toBe('completed');
    expect(artifactText(view, 'sdk-result')).toBe([0, 1, 2].map(sdkChunkText).join(''));
    expect(remoteNotes(view)).toContainEqual(expect.objectContaining({ event: 'resumed', phase: 'sent' }));
    expect(sends()).toBe(1);
    expect(peer.requests.map((q) => q.method)).toContain('ListTasks');
  });
});
