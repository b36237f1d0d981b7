/**
 * A peer whose card offers only HTTP+JSON (the @a2a-js/sdk 1.3.0 restHandler, a third-party
 * server) can be dispatched to. Switchboard A reads the card, speaks the §11 resource paths under
 * the card's URL, and follows the task in every mode, across a crash and restart of A, and
 * cancels it, as over JSON-RPC.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { startSdkPeer, sdkChunkText, type SdkPeer } from '../support/sdk-peer';
import { artifactText, dispatch, postJson, readTask, waitForTask } from '../support/dispatch-api';
import { waitFor } from '../support/a2a-clients';

let a: AppServer;
let peer: SdkPeer;
/** Serves a card whose only interface is A's own HTTP+JSON binding for its `slow` agent. */
let cardServer: http.Server;
let cardUrl: string;

beforeAll(async () => {
  [a, peer] = await Promise.all([startApp({ SWITCHBOARD_CLIENT_TIMEOUT: '1.5' }), startSdkPeer({ restOnly: true })]);
  const card = { name: 'Switchboard slow over HTTP+JSON', supportedInterfaces: [{ url: `${a.url}/a2a/slow`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }], capabilities: { streaming: true }, skills: [] };
  cardServer = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(card)));
  await new Promise<void>((resolve) => cardServer.listen(0, '127.0.0.1', resolve));
  cardUrl = `http://127.0.0.1:${(cardServer.address() as AddressInfo).port}/.well-known/agent-card.json`;
});
afterAll(async () => {
  cardServer?.close();
  await Promise.all([a?.stop(), peer?.close()]);
});

const expected = Array.from({ length: 6 }, (_, i) => sdkChunkText(i)).join('');
const paths = () => peer.requests.map((r) => r.method ?? '');

describe('A → an HTTP+JSON-only @a2a-js/sdk peer (6 chunks over 1.8 s)', () => {
  // Concurrent: three tasks of their own, timed by the peer's clock (the next test waits for them).
  it.concurrent.each(['blocking', 'streaming', 'background'])('%s ends COMPLETED with every chunk, over HTTP+JSON', async (mode) => {
    const taskId = await dispatch(a.url, { url: peer.url, text: 'chunks 6 every 300ms', mode });
    const view = await waitForTask(a.url, taskId);
    expect(view.task.state).toBe('completed');
    expect(artifactText(view, 'sdk-result')).toBe(expected);
    // The endpoint spoken to: the card's HTTP+JSON interface, marked as such.
    expect(view.task.peerUrl).toBe(`rest+${peer.url}/rest`);
  });

  it('every call went to a §11 path with A2A-Version 1.0, none to JSON-RPC', () => {
    expect(paths()).toContain('POST /message:send');
    expect(paths()).toContain('POST /message:stream');
    expect(paths().some((p) => /^GET \/tasks\/[^/:]+$/.test(p))).toBe(true);
    expect(peer.requests.every((r) => r.method?.startsWith('GET /') || r.method?.startsWith('POST /'))).toBe(true);
    expect(new Set(peer.requests.map((r) => r.headers['a2a-version']))).toEqual(new Set(['1.0']));
  });

  it('after a crash and restart of A, the follow resumes over HTTP+JSON and records the whole result', async () => {
    const taskId = await dispatch(a.url, { url: peer.url, text: 'chunks 12 every 250ms', mode: 'background' });
    await waitFor(async () => (await readTask(a.url, taskId)).task.remoteTaskId);
    await a.kill();
    const before = peer.requests.length;
    await a.restart();
    const view = await waitForTask(a.url, taskId);
    expect(view.task.state).toBe('completed');
    expect(artifactText(view, 'sdk-result')).toBe(Array.from({ length: 12 }, (_, i) => sdkChunkText(i)).join(''));
    expect(view.task.peerUrl).toBe(`rest+${peer.url}/rest`);
    const remote = view.task.remoteTaskId as string;
    expect(paths().slice(before).some((p) => p.startsWith(`GET /tasks/${remote}`) || p.startsWith(`POST /tasks/${remote}`))).toBe(true);
  });

  it('cancel reaches the peer at POST /tasks/{id}:cancel', async () => {
    const taskId = await dispatch(a.url, { url: peer.url, text: 'chunks 50 every 200ms', mode: 'background' });
    await waitForTask(a.url, taskId, ['working']);
    const remote = await waitFor(async () => (await readTask(a.url, taskId)).task.remoteTaskId as string | undefined);
    const res = await postJson(`${a.url}/api/tasks/${taskId}/cancel`, {});
    expect(res.status).toBe(200);
    const view = await waitForTask(a.url, taskId);
    expect(view.task.state).toBe('canceled');
    expect(paths()).toContain(`POST /tasks/${remote}:cancel`);
  });

  it("a configured peer's auth and extra headers reach the HTTP+JSON endpoint on its own origin", async () => {
    const created = await postJson(`${a.url}/api/peers`, { name: 'rest-keyed', url: peer.url, auth: { type: 'apiKey', header: 'X-Key', key: 'k-rest-123' }, headers: { 'X-Team': 'blue' } });
    expect(created.status).toBe(201);
    const before = peer.requests.length;
    const taskId = await dispatch(a.url, { peer: 'rest-keyed', text: 'chunks 1 every 10ms', mode: 'blocking' });
    expect((await waitForTask(a.url, taskId)).task.state).toBe('completed');
    const sends = peer.requests.slice(before).filter((r) => r.method === 'POST /message:send' || r.method === 'POST /message:stream');
    expect(sends.length).toBeGreaterThan(0);
    expect(sends.every((r) => r.headers['x-key'] === 'k-rest-123' && r.headers['x-team'] === 'blue')).toBe(true);
  });

  it("the peer's A2A errors come back as the JSON-RPC ones: an unknown task is task-not-found", async () => {
    const { getTask } = await import('../../lib/client/a2a-client');
    const target = { endpoint: `rest+${peer.url}/rest`, version: '1.0' as const, headers: {} };
    await expect(getTask(target, 'no-such-task', { timeoutMs: 5000 })).rejects.toMatchObject({ code: -32001 });
  });
});

describe("A → its own agent through a card listing only Switchboard's HTTP+JSON binding (lib/server/serve-rest.ts)", () => {
  // Concurrent: three tasks of their own, each a 1 s wait on the agent's clock.
  it.concurrent.each(['blocking', 'streaming', 'background'])('%s ends COMPLETED, the peer side being the same task over HTTP+JSON', async (mode) => {
    const taskId = await dispatch(a.url, { url: cardUrl, text: 'work 1s', mode });
    const view = await waitForTask(a.url, taskId);
    expect(view.task.state).toBe('completed');
    expect(view.task.peerUrl).toBe(`rest+${a.url}/a2a/slow`);
    const inbound = await readTask(a.url, view.task.remoteTaskId as string);
    expect(inbound.task).toMatchObject({ direction: 'inbound', state: 'completed' });
  });

  it('cancel reaches our own server at POST /tasks/{id}:cancel: both sides end canceled', async () => {
    const taskId = await dispatch(a.url, { url: cardUrl, text: 'work 60s', mode: 'background' });
    const remote = await waitFor(async () => (await readTask(a.url, taskId)).task.remoteTaskId as string | undefined);
    expect((await postJson(`${a.url}/api/tasks/${taskId}/cancel`, {})).status).toBe(200);
    expect((await waitForTask(a.url, taskId)).task.state).toBe('canceled');
    expect((await waitForTask(a.url, remote)).task.state).toBe('canceled');
  });
});
