/**
 * The wire client against a peer nobody here wrote: the @a2a-js/sdk 1.3.0 reference server (v1.0, and
 * v0.3 through its compatibility layer). Switchboard A (client timeout 1.5 s) dispatches in every
 * mode and version; the SDK would hold a blocking send until the end, past A's timeout, so A's
 * blocking dispatch streams instead (the card offers it): the first event names the task, and
 * the whole result is recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { startSdkPeer, sdkChunkText, type SdkPeer } from '../support/sdk-peer';
import { artifactText, dispatch, waitForTask } from '../support/dispatch-api';
import { waitFor } from '../support/a2a-clients';

let a: AppServer;
let peer: SdkPeer;

beforeAll(async () => {
  [a, peer] = await Promise.all([startApp({ SWITCHBOARD_CLIENT_TIMEOUT: '1.5' }), startSdkPeer()]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), peer?.close()]);
});

const expected = Array.from({ length: 6 }, (_, i) => sdkChunkText(i)).join('');

describe('A → @a2a-js/sdk peer (6 chunks over 1.8 s)', () => {
  const cases = [
    { mode: 'blocking', version: '1.0' },
    { mode: 'blocking', version: '0.3' },
    { mode: 'streaming', version: '1.0' },
    { mode: 'streaming', version: '0.3' },
    { mode: 'background', version: '1.0' },
    { mode: 'background', version: '0.3' },
  ];

  it.each(cases)('$mode over v$version ends COMPLETED with every chunk', async ({ mode, version }) => {
    const taskId = await dispatch(a.url, { url: peer.url, text: 'chunks 6 every 300ms', mode, protocolVersion: version });
    const view = await waitForTask(a.url, taskId);
    expect(view.task.state).toBe('completed');
    expect(artifactText(view, 'sdk-result')).toBe(expected);
    expect(view.task.peerUrl).toBe(peer.endpoint);
    // A blocking dispatch learns the task id first: it streams, nothing is cut or looked up.
    const remote = view.events.filter((e) => e.type === 'remote').map((e) => e.payload as { event?: string; via?: string });
    if (mode === 'blocking') expect(remote.find((e) => e.event === 'blocking-strategy')?.via).toBe('stream');
    expect(remote.map((e) => e.event)).not.toContain('client-timeout');
  });

  it('blocking over v0.3 with a per-dispatch timeout above the task: one call, nothing cut', async () => {
    const taskId = await dispatch(a.url, { url: peer.url, text: 'chunks 6 every 300ms', mode: 'blocking', protocolVersion: '0.3', timeoutSeconds: 20 });
    const view = await waitForTask(a.url, taskId);
    expect(view.task.state).toBe('completed');
    expect(artifactText(view, 'sdk-result')).toBe(expected);
    expect(view.events.some((e) => e.type === 'remote' && (e.payload as { event?: string }).event === 'client-timeout')).toBe(false);
    expect(peer.requests.map((r) => r.method)).not.toContain('tasks/list');
  });

  it('v1.0 calls carry A2A-Version: 1.0 and v0.3 calls none', () => {
    const versions = new Set(peer.requests.map((r) => r.headers['a2a-version'] ?? 'none'));
    expect(versions).toEqual(new Set(['1.0', 'none']));
  });

  it("a peer's input-required is answered by a follow-up dispatch in the same task", async () => {
    const taskId = await dispatch(a.url, { url: peer.url, text: 'ask', mode: 'blocking', protocolVersion: '1.0' });
    await waitForTask(a.url, taskId, ['input-required']);
    await dispatch(a.url, { taskId, text: 'chunks 2 every 10ms', mode: 'streaming' });
    const view = await waitForTask(a.url, taskId);
    expect(view.task.state).toBe('completed');
    expect(artifactText(view, 'sdk-result')).toBe(sdkChunkText(0) + sdkChunkText(1));
  });
});

describe('a peer that goes away while A follows', () => {
  it('network errors are recorded, never fail the task; a peer that lost the task ends it with that reason', async () => {
    const flaky = await startSdkPeer();
    const taskId = await dispatch(a.url, { url: flaky.url, text: 'chunks 50 every 200ms', mode: 'background', protocolVersion: '1.0' });
    await waitFor(async () => (await readState(taskId)).remote, 30_000);
    await flaky.close();
    const back = await waitFor(async () => {
      const view = await waitForTask(a.url, taskId, ['working', 'failed']);
      return view.events.some((e) => e.type === 'follow-error') ? view : null;
    }, 30_000);
    expect(back.task.state).toBe('working');
    const again = await startSdkPeer({ port: flaky.port });
    const view = await waitForTask(a.url, taskId);
    await again.close();
    expect(view.task.state).toBe('failed');
    expect(view.task.endReason).toMatch(/^peer lost the task/);
  });
});

async function readState(taskId: string): Promise<{ remote: boolean }> {
  const view = await waitForTask(a.url, taskId, ['working', 'completed', 'failed']);
  return { remote: Boolean(view.task.remoteTaskId) };
}
