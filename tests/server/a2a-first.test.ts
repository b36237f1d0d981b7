/**
 * The A2A endpoints answered by the HTTP server's listener before Next.js (decision 395): an app
 * started in this process, a real http.Server whose own handler stands for Next's. The route
 * files' handlers answer JSON-RPC, SSE, the HTTP+JSON binding, cards and their errors without
 * Next; a body is bounded; a client that goes away aborts the request's signal (the task
 * detaches); every other request reaches the handler untouched.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../lib/config/settings';
import { createSwitchboard, type Switchboard } from '../../lib/app';
import { answerHealthFirst } from '../../lib/server/health-first';
import { SECURITY_HEADERS } from '../../lib/server/security-headers';
import { waitFor } from '../support/a2a-clients';

let app: Switchboard;
let server: http.Server;
let base: string;
const reachedNext: string[] = [];

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-a2a-first-'));
  app = createSwitchboard(loadSettings({ NODE_ENV: 'test', DATABASE_URL: `file:${path.join(dir, 'app.db')}`, SWITCHBOARD_LOG_LEVEL: 'error', HOST: '127.0.0.1', SWITCHBOARD_MAX_BODY_BYTES: '4096' }));
  await app.start();
  server = http.createServer((req, res) => {
    reachedNext.push(`${req.method} ${req.url}`);
    res.end('next');
  });
  answerHealthFirst(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await app.stop();
});

const rpc = (method: string, params: unknown, id: number | string = 1) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const message = (text: string) => ({ message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }] } });
const post = (p: string, body: string, headers: Record<string, string> = {}) => fetch(base + p, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('A2A before Next', () => {
  it('answers JSON-RPC, the HTTP+JSON binding and cards with the route handlers, headers as Next sends them', async () => {
    reachedNext.length = 0;
    const echo = await post('/a2a', rpc('message/send', message('hi')));
    expect(echo.status).toBe(200);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(echo.headers.get(name)).toBe(value);
    expect(echo.headers.get('vary')).toBe('rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch, Accept-Encoding');
    expect(echo.headers.get('content-type')).toBe('application/json');
    expect(echo.headers.get('content-encoding')).toBe('gzip'); // fetch accepts gzip: Next's compression, applied the same
    expect(await echo.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: { kind: 'task', status: { state: 'completed' }, artifacts: [{ parts: [{ text: 'hi' }] }] } });
    expect(await (await post('/a2a/echo/', rpc('message/send', message('slash')))).json()).toMatchObject({ result: { status: { state: 'completed' } } });
    const rest = await post('/a2a/echo/message:send', JSON.stringify({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'rest' }] } }), { 'A2A-Version': '1.0' });
    expect(rest.status).toBe(200);
    expect(await rest.json()).toMatchObject({ task: { status: { state: 'TASK_STATE_COMPLETED' } } });
    const card = await fetch(`${base}/a2a/echo/.well-known/agent-card.json`);
    expect(card.headers.get('cache-control')).toBe('private, max-age=60');
    expect(card.headers.get('vary')).toBe('rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch, A2A-Version, Host, X-Forwarded-Host, X-Forwarded-Proto, Accept-Encoding');
    expect(await card.json()).toMatchObject({ name: 'Echo', url: `${base}/a2a/echo` });
    expect(reachedNext).toEqual([]);
  });

  it('answers errors in each binding’s shape: bad JSON, unknown agent, a verb without an operation', async () => {
    reachedNext.length = 0;
    expect(await (await post('/a2a', '{bad')).json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Invalid JSON payload' } });
    const unknown = await post('/a2a/nobody', rpc('message/send', message('x')));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ id: null, error: { code: -32601 } });
    const put = await fetch(`${base}/a2a/echo/tasks`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(await put.json()).toMatchObject({ error: { code: 405, status: 'UNIMPLEMENTED' } });
    expect(reachedNext).toEqual([]);
  });

  it('bounds the body: past the limit the same precise 413, declared or chunked, nothing more buffered', async () => {
    const big = 'x'.repeat(10_000);
    const declared = await post('/a2a', big);
    expect(declared.status).toBe(413);
    expect((await declared.json()).error.message).toContain('request body exceeds 4096 bytes (SWITCHBOARD_MAX_BODY_BYTES)');
    // A body of unknown length (chunked), larger than the socket's buffers: refused the same way.
    const chunked = await fetch(`${base}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: new Blob([big]).stream(), duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
    expect((await chunked.json()).error.message).toContain('request body exceeds 4096 bytes');
  });

  it('streams SSE (message/stream) to its end', async () => {
    const res = await post('/a2a/slow', rpc('message/stream', message('work 0s chunks 50 size 10')));
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(res.headers.get('content-encoding')).toBeNull(); // no-transform: never compressed
    const text = await res.text();
    const frames = text.split('\n\n').filter((f) => f.startsWith('data:') || f.includes('\ndata:'));
    expect(frames.length).toBeGreaterThan(50);
    expect(text).toContain('"state":"completed"');
  });

  it("aborts the request's signal when the client goes away: the streamed task detaches", async () => {
    const res = await post('/a2a/slow', rpc('message/stream', message('work 30s chunks 30 size 10')));
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    const taskId = /"id":"([0-9a-f-]{36})"/.exec(first)![1];
    await reader.cancel(); // the client goes away mid-stream
    const detached = async () => {
      const got = await (await post('/a2a/slow', rpc('tasks/get', { id: taskId }))).json();
      return got.result?.metadata?.switchboard?.detached === true;
    };
    await waitFor(detached, 10_000);
    await post('/a2a/slow', rpc('tasks/cancel', { id: taskId }));
  });

  it('leaves every other request to Next', async () => {
    reachedNext.length = 0;
    expect(await (await fetch(`${base}/a2a`)).text()).toBe('next'); // GET: the route exports POST only
    expect(await (await fetch(`${base}/a2a/echo`, { method: 'DELETE' })).text()).toBe('next');
    expect(await (await post('/a2a/%65cho', rpc('message/send', message('x')))).text()).toBe('next'); // proxy.ts checks '%'
    expect(await (await post('/a2a//echo', '{}')).text()).toBe('next'); // Next redirects '//'
    expect(await (await fetch(`${base}/a2a/echo/.well-known/agent-card.json`, { method: 'POST' })).text()).toBe('next');
    expect(await (await fetch(`${base}/a2a/echo/tasks`, { method: 'OPTIONS' })).text()).toBe('next');
    expect(await (await post('/a2abc', '{}')).text()).toBe('next');
    expect(reachedNext).toEqual(['GET /a2a', 'DELETE /a2a/echo', 'POST /a2a/%65cho', 'POST /a2a//echo', 'POST /a2a/echo/.well-known/agent-card.json', 'OPTIONS /a2a/echo/tasks', 'POST /a2abc']);
  });

  it('stops reading a body whose client went away before sending it whole', async () => {
    const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('POST /a2a HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc"');
    socket.destroy();
    // The server still answers the next client.
    expect((await post('/a2a', rpc('message/send', message('after')))).status).toBe(200);
  });
});
