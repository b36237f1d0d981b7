/**
 * "Dispatch again" of an outbound task sends the task's recorded endpoint (its peerUrl) as the
 * dispatch's `url`. Once a task has connected over gRPC or HTTP+JSON that is `grpc://…` or
 * `rest+http://…`, not an http(s) URL; the peer resolver takes it: the configured peer whose card
 * endpoint it is (its credentials, its card read from its URL), or that interface itself. A
 * malformed one is refused naming `url`. The reply link sends the same endpoint with the taskId.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { startSdkPeer, sdkChunkText, type SdkPeer } from '../support/sdk-peer';
import { artifactText, dispatch, postJson, waitForTask } from '../support/dispatch-api';

let a: AppServer;
let grpcPeer: SdkPeer;
let restPeer: SdkPeer;

beforeAll(async () => {
  [a, grpcPeer, restPeer] = await Promise.all([startApp(), startSdkPeer({ grpcOnly: true }), startSdkPeer({ restOnly: true })]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), grpcPeer?.close(), restPeer?.close()]);
});

const chunks = (n: number) => Array.from({ length: n }, (_, i) => sdkChunkText(i)).join('');
const sends = (peer: SdkPeer) => peer.requests.filter((r) => /sendStreamingMessage|sendMessage|message:send|message:stream/.test(r.method ?? '')).length;

/** Dispatches by the peer's HTTP URL and returns the endpoint the finished task recorded. */
async function recordedEndpoint(peer: SdkPeer): Promise<string> {
  const first = await waitForTask(a.url, await dispatch(a.url, { url: peer.url, text: 'chunks 2 every 50ms', mode: 'streaming' }));
  expect(first.task.state).toBe('completed');
  return first.task.peerUrl!;
}

describe('dispatch again to a recorded gRPC or HTTP+JSON endpoint', () => {
  it.each([
    ['gRPC', () => grpcPeer, /^grpc:\/\/127\.0\.0\.1:\d+$/],
    ['HTTP+JSON', () => restPeer, /^rest\+http:\/\/127\.0\.0\.1:\d+\/rest$/],
  ])('%s: the endpoint a URL-dispatched task recorded is dispatched to again', async (_binding, peerOf, endpointShape) => {
    const peer = peerOf();
    const endpoint = await recordedEndpoint(peer);
    expect(endpoint).toMatch(endpointShape);
    const before = sends(peer);
    const again = await waitForTask(a.url, await dispatch(a.url, { url: endpoint, text: 'chunks 3 every 50ms', mode: 'streaming' }));
    expect(again.task.state).toBe('completed');
    expect(artifactText(again, 'sdk-result')).toBe(chunks(3));
    expect(again.task.peerName).toBeNull();
    expect(again.task.peerUrl).toBe(endpoint);
    expect(sends(peer)).toBe(before + 1);
  });

  it("a configured peer's recorded gRPC endpoint resolves to that peer", async () => {
    const created = await postJson(`${a.url}/api/peers`, { name: 'grpc-only', url: grpcPeer.url });
    expect(created.status).toBe(201);
    const first = await waitForTask(a.url, await dispatch(a.url, { peer: 'grpc-only', text: 'chunks 1 every 50ms' }));
    const endpoint = first.task.peerUrl!;
    expect(endpoint).toMatch(/^grpc:\/\//);
    const again = await waitForTask(a.url, await dispatch(a.url, { url: endpoint, text: 'chunks 2 every 50ms' }));
    expect(again.task.state).toBe('completed');
    expect(again.task.peerName).toBe('grpc-only');
    expect(artifactText(again, 'sdk-result')).toBe(chunks(2));
  });

  it("the reply link (taskId with the task's recorded endpoint) answers a task that asks, over HTTP+JSON", async () => {
    // A card whose only interface is A's own HTTP+JSON binding of its `ask` agent.
    const card = { name: 'ask over HTTP+JSON', supportedInterfaces: [{ url: `${a.url}/a2a/ask`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }], capabilities: { streaming: true }, skills: [] };
    const cardServer = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(card)));
    await new Promise<void>((resolve) => cardServer.listen(0, '127.0.0.1', resolve));
    try {
      const cardUrl = `http://127.0.0.1:${(cardServer.address() as AddressInfo).port}/.well-known/agent-card.json`;
      const taskId = await dispatch(a.url, { url: cardUrl, text: 'hello', mode: 'streaming' });
      const asked = await waitForTask(a.url, taskId, ['input-required']);
      expect(asked.task.peerUrl).toBe(`rest+${a.url}/a2a/ask`);
      const reply = await postJson(`${a.url}/api/dispatch`, { taskId, url: asked.task.peerUrl, text: 'Ada' });
      expect(reply.status).toBe(202);
      expect((await waitForTask(a.url, taskId)).task.state).toBe('completed');
    } finally {
      cardServer.close();
    }
  });

  it.each(['grpc://no-port', 'grpc://', 'rest+ftp://h/x', 'ftp://h/x', 'rest+http://'])('refuses url %s naming the field', async (url) => {
    const res = await postJson(`${a.url}/api/dispatch`, { url, text: 'hi' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('url');
    expect(JSON.stringify(res.body)).toContain('grpc:// or rest+http(s):// endpoint a task recorded');
  });
});
