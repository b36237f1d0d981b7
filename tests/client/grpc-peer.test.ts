/**
 * A peer whose card offers only gRPC (the @a2a-js/sdk 1.3.0 reference gRPC server)
 * can be dispatched to. Switchboard A reads the card, speaks `lf.a2a.v1.A2AService` to the
 * card's target with the card's tenant, and follows the task in every mode, across a crash and
 * restart of A, and cancels it, as over JSON-RPC.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { startSdkPeer, sdkChunkText, type SdkPeer } from '../support/sdk-peer';
import { artifactText, dispatch, postJson, readTask, waitForTask } from '../support/dispatch-api';
import { waitFor } from '../support/a2a-clients';

let a: AppServer;
let peer: SdkPeer;

beforeAll(async () => {
  [a, peer] = await Promise.all([startApp({ SWITCHBOARD_CLIENT_TIMEOUT: '1.5' }), startSdkPeer({ grpcOnly: true })]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), peer?.close()]);
});

const expected = Array.from({ length: 6 }, (_, i) => sdkChunkText(i)).join('');

describe('A → a gRPC-only @a2a-js/sdk peer (6 chunks over 1.8 s)', () => {
  it.each(['blocking', 'streaming', 'background'])('%s ends COMPLETED with every chunk, over gRPC', async (mode) => {
    const taskId = await dispatch(a.url, { url: peer.url, text: 'chunks 6 every 300ms', mode });
    const view = await waitForTask(a.url, taskId);
    expect(view.task.state).toBe('completed');
    expect(artifactText(view, 'sdk-result')).toBe(expected);
    // The endpoint spoken to: the card's gRPC target (the card came from the peer's HTTP URL).
    expect(view.task.peerUrl).toMatch(/^grpc:\/\/127\.0\.0\.1:\d+$/);
    expect(view.task.peerUrl).not.toBe(`grpc://127.0.0.1:${peer.port}`);
  });

  it('every call reached the peer over gRPC with A2A-Version 1.0', () => {
    const methods = new Set(peer.requests.map((r) => r.method));
    expect(methods.has('sendStreamingMessage') || methods.has('sendMessage')).toBe(true);
    expect(new Set(peer.requests.map((r) => r.headers['a2a-version']))).toEqual(new Set(['1.0']));
  });

  it('after a crash and restart of A, the follow resumes over gRPC and records the whole result', async () => {
    const taskId = await dispatch(a.url, { url: peer.url, text: 'chunks 12 every 250ms', mode: 'background' });
    await waitFor(async () => (await readTask(a.url, taskId)).task.remoteTaskId);
    await a.kill();
    await a.restart();
    const view = await waitForTask(a.url, taskId);
    expect(view.task.state).toBe('completed');
    expect(artifactText(view, 'sdk-result')).toBe(Array.from({ length: 12 }, (_, i) => sdkChunkText(i)).join(''));
    expect(view.task.peerUrl).toMatch(/^grpc:\/\//);
  });

  it('cancel reaches the peer over gRPC', async () => {
    const taskId = await dispatch(a.url, { url: peer.url, text: 'chunks 50 every 200ms', mode: 'background' });
    await waitForTask(a.url, taskId, ['working']);
    await waitFor(async () => (await (await fetch(`${a.url}/api/tasks/${taskId}`)).json()).task.remoteTaskId);
    const res = await postJson(`${a.url}/api/tasks/${taskId}/cancel`, {});
    expect(res.status).toBe(200);
    const view = await waitForTask(a.url, taskId);
    expect(view.task.state).toBe('canceled');
    expect(peer.requests.map((r) => r.method)).toContain('cancelTask');
  });
});
