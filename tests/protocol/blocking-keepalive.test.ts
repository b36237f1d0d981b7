/**
 * A blocking send longer than the client's header and body timeouts. undici (Node's
 * fetch, under every a2a-js client) drops a response whose headers have not arrived within its
 * headersTimeout (300 s), so a held blocking answer sends its headers at once and keeps the body
 * alive with leading spaces until the JSON (decision 164). Scaled: undici timeouts of 1.5 s, an
 * agent that works 4 s, a space every 0.2 s. Without the keep-alive every call here fails with
 * UND_ERR_HEADERS_TIMEOUT.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, fetch as undiciFetch, request } from 'undici';
import { ClientFactory, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import { JsonRpcTransport as JsonRpcTransport0314 } from 'a2a-sdk-0314/client';
import { startApp, type AppServer } from '../support/app-server';
import { asTask, sendParams, TaskState } from '../support/a2a-clients';

const CLIENT_TIMEOUT_MS = 1_500;
const WORK = 'work 4s chunks 2';
let app: AppServer;
const dispatcher = new Agent({ headersTimeout: CLIENT_TIMEOUT_MS, bodyTimeout: CLIENT_TIMEOUT_MS });
const impatientFetch = ((input: string | URL, init?: RequestInit) => undiciFetch(input, { ...(init as object), dispatcher })) as unknown as typeof fetch;

beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_RESPONSE_WINDOW: '60', SWITCHBOARD_BLOCKING_KEEPALIVE: '0.2' });
});
afterAll(async () => {
  await app?.stop();
  await dispatcher.close();
});

describe('a blocking send outlasting the client timeouts', () => {
  it('raw undici: the headers arrive at once, the body is spaces then the JSON answer', async () => {
    const started = Date.now();
    const res = await request(`${app.url}/a2a/slow`, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: WORK }] } } }),
    });
    const headersAfterMs = Date.now() - started;
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    const text = await res.body.text();
    const tookMs = Date.now() - started;
    expect(headersAfterMs).toBeLessThan(CLIENT_TIMEOUT_MS);
    expect(tookMs).toBeGreaterThan(CLIENT_TIMEOUT_MS);
    expect(text).toMatch(/^ +\{/);
    expect(JSON.parse(text).result.status.state).toBe('completed');
  });

  it('a2a-js 1.3.0, JSON-RPC v1.0 and HTTP+JSON: the answer is the completed task', async () => {
    for (const transports of [[new JsonRpcTransportFactory({ fetchImpl: impatientFetch })], [new RestTransportFactory({ fetchImpl: impatientFetch })]]) {
      const client = await new ClientFactory({ transports }).createFromUrl(`${app.url}/a2a/slow/`);
      const task = asTask(await client.sendMessage(sendParams(WORK)));
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    }
  });

  it('a2a-js 0.3.14, JSON-RPC v0.3: the answer is the completed task', async () => {
    const client = new JsonRpcTransport0314({ endpoint: `${app.url}/a2a/slow`, fetchImpl: impatientFetch });
    const answer = await client.sendMessage({ message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: WORK }] } });
    expect(answer).toMatchObject({ kind: 'task', status: { state: 'completed' } });
  });

  it('an answer ready at once is plain JSON with its own status (errors keep theirs)', async () => {
    const quick = await fetch(`${app.url}/a2a/echo/message:send`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0' }, body: JSON.stringify({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hi' }] } }) });
    expect((await quick.text()).startsWith('{')).toBe(true);
    const missing = await fetch(`${app.url}/a2a/echo/message:send`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0' }, body: JSON.stringify({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', taskId: 'no-such-task', parts: [{ text: 'hi' }] } }) });
    expect(missing.status).toBe(404);
  });
});
