/**
 * The built app answers an A2A request before Next.js (decision 395) with the same bytes Next
 * answers it with: each request is sent twice to one server, once as is (answered before Next)
 * and once with a `%` in its URL that changes nothing the route reads (which the fast path
 * leaves to Next). Status line, every header but Date in order and case, and the body's bytes
 * as sent (gzip included) must be equal.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';

let app: AppServer;

beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_MAX_BODY_BYTES: '4096' });
});
afterAll(async () => app?.stop());

interface Raw {
  head: string[];
  body: Buffer;
}

function send(path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(app.url + path, { method: opts.method ?? 'POST', headers: opts.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const head = [`${res.statusCode} ${res.statusMessage}`];
        for (let i = 0; i < res.rawHeaders.length; i += 2) if (res.rawHeaders[i].toLowerCase() !== 'date') head.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        resolve({ head, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** The same request answered before Next and by Next: equal, byte for byte. */
async function expectSameAsNext(fast: string, throughNext: string, opts: Parameters<typeof send>[1] = {}): Promise<Raw> {
  const a = await send(fast, opts);
  const b = await send(throughNext, opts);
  expect(a.head).toEqual(b.head);
  expect(a.body.equals(b.body), `${fast}: ${a.body.toString()} vs ${b.body.toString()}`).toBe(true);
  return a;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const GZIP = { ...JSON_TYPE, 'accept-encoding': 'gzip, deflate' };
const rpc = (method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 7, method, params });

describe('answers before Next are the answers through Next', () => {
  let taskId = '';

  beforeAll(async () => {
    const message = { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'parity' }] };
    const sent = await send('/a2a/echo', { headers: JSON_TYPE, body: rpc('message/send', { message }) });
    taskId = JSON.parse(sent.body.toString()).result.id;
  });

  it('JSON-RPC answers, plain and gzip', async () => {
    const get = rpc('tasks/get', { id: taskId });
    const plain = await expectSameAsNext('/a2a/echo', '/a2a/echo?x=%25', { headers: JSON_TYPE, body: get });
    expect(plain.head).toContain('Transfer-Encoding: chunked');
    const gzip = await expectSameAsNext('/a2a', '/a2a?x=%25', { headers: GZIP, body: get });
    expect(gzip.head).toContain('Content-Encoding: gzip');
  });

  it('errors: bad JSON, an unknown agent, a body over the limit, a refused Content-Type', async () => {
    await expectSameAsNext('/a2a', '/a2a?x=%25', { headers: GZIP, body: '{bad' });
    await expectSameAsNext('/a2a/nobody', '/a2a/nobody?x=%25', { headers: JSON_TYPE, body: rpc('message/send', {}) });
    const tooLarge = await expectSameAsNext('/a2a/echo', '/a2a/echo?x=%25', { headers: JSON_TYPE, body: 'x'.repeat(5000) });
    expect(tooLarge.head[0]).toBe('413 Payload Too Large');
    await expectSameAsNext('/a2a/echo', '/a2a/echo?x=%25', { headers: { 'content-type': 'text/plain' }, body: '{}' });
  });

  it('the HTTP+JSON binding: a task, a 405, an unknown agent', async () => {
    const v1 = { 'A2A-Version': '1.0', 'accept-encoding': 'gzip' };
    await expectSameAsNext(`/a2a/echo/tasks/${taskId}`, `/a2a/echo/%74asks/${taskId}`, { method: 'GET', headers: v1 });
    const wrongVerb = await expectSameAsNext('/a2a/echo/tasks', '/a2a/echo/%74asks', { method: 'PUT', headers: v1 });
    expect(wrongVerb.head[0]).toBe('405 Method Not Allowed');
    await expectSameAsNext('/a2a/nobody/tasks', '/a2a/nobody/%74asks', { method: 'GET', headers: v1 });
  });

  it('SSE: an error event stream (v0.3) and a subscription to a finished task', async () => {
    const missing = await expectSameAsNext('/a2a/echo', '/a2a/echo?x=%25', { headers: GZIP, body: rpc('tasks/resubscribe', { id: crypto.randomUUID() }) });
    expect(missing.head).toContain('content-type: text/event-stream');
    await expectSameAsNext('/a2a/echo', '/a2a/echo?x=%25', { headers: { ...GZIP, 'A2A-Version': '1.0' }, body: rpc('SubscribeToTask', { id: taskId }) });
  });

  it('agent cards', async () => {
    await expectSameAsNext('/a2a/echo/.well-known/agent-card.json', '/a2a/echo/.well-known/agent-card.json?x=%25', { method: 'GET', headers: { 'accept-encoding': 'gzip' } });
    await expectSameAsNext('/a2a/echo/.well-known/agent.json', '/a2a/echo/.well-known/agent.json?x=%25', { method: 'GET' });
  });
});
