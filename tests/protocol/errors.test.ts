/**
 * Malformed and hostile payloads get the JSON-RPC codes the spec names, with HTTP 200
 * (401/413 where HTTP itself answers), never a stack trace or an HTML page; the server stays up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { rpc } from '../support/a2a-clients';

let app: AppServer;
let endpoint: string;

beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_MAX_BODY_BYTES: '4096' });
  endpoint = `${app.url}/a2a/echo`;
});
afterAll(async () => app?.stop());

async function post(body: string, headers: Record<string, string> = {}) {
  const res = await fetch(endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });
  const text = await res.text();
  expect(text).not.toMatch(/<html|at \w+ \(|\.ts:\d+/i);
  return { status: res.status, body: JSON.parse(text) };
}

const userMessage = { messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'hi' }] };

describe('JSON-RPC errors', () => {
  it('-32700 for malformed JSON, with id null', async () => {
    const res = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(res).toMatchObject({ status: 200, body: { jsonrpc: '2.0', id: null, error: { code: -32700 } } });
  });

  it.each([
    ['a non-object body', '[1,2]'],
    ['a wrong jsonrpc version', '{"jsonrpc":"1.0","id":1,"method":"tasks/get"}'],
    ['a missing method', '{"jsonrpc":"2.0","id":1}'],
    ['an id of the wrong type', '{"jsonrpc":"2.0","id":{"x":1},"method":"tasks/get"}'],
    ['a number as the body', '42'],
  ])('-32600 for %s', async (_, body) => {
    const res = await post(body);
    expect(res.status).toBe(200);
    expect(res.body.error.code).toBe(-32600);
  });

  it('-32601 for an unknown method, echoing the id', async () => {
    const res = await post('{"jsonrpc":"2.0","id":"abc","method":"tasks/explode","params":{}}');
    expect(res.body).toMatchObject({ id: 'abc', error: { code: -32601 } });
  });

  it('-32602 naming the field for bad params', async () => {
    const missingParts = await rpc(endpoint, 'message/send', { message: { messageId: 'm', role: 'user' } });
    expect(missingParts.body.error.code).toBe(-32602);
    expect(missingParts.body.error.message).toContain('params.message.parts');
    const badRole = await rpc(endpoint, 'SendMessage', { message: { messageId: 'm', role: 'user', parts: [{ text: 'x' }] } }, { 'A2A-Version': '1.0' });
    expect(badRole.body.error.code).toBe(-32602);
    expect(badRole.body.error.message).toContain('params.message.role');
    const arrayParams = await post('{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":[1]}');
    expect(arrayParams.body.error.code).toBe(-32602);
  });

  it('-32001 for an unknown task, in both versions; v1.0 carries ErrorInfo in error.data', async () => {
    const v03 = await rpc(endpoint, 'tasks/get', { id: 'missing' });
    expect(v03.body.error).toMatchObject({ code: -32001 });
    expect(v03.body.error.data).toBeUndefined();
    const v10 = await rpc(endpoint, 'GetTask', { id: 'missing' }, { 'A2A-Version': '1.0' });
    expect(v10.body.error).toMatchObject({ code: -32001, data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' }] });
  });

  it('-32002 when cancelling a task that already ended', async () => {
    const sent = await rpc(endpoint, 'message/send', { message: userMessage });
    const res = await rpc(endpoint, 'tasks/cancel', { id: sent.body.result.id });
    expect(res.body.error.code).toBe(-32002);
  });

  it('-32004 for a message to a terminal task (v1.0)', async () => {
    const sent = await rpc(endpoint, 'message/send', { message: userMessage });
    const res = await rpc(endpoint, 'SendMessage', { message: { messageId: 'm2', role: 'ROLE_USER', taskId: sent.body.result.id, parts: [{ text: 'more' }] } }, { 'A2A-Version': '1.0' });
    expect(res.body.error.code).toBe(-32004);
    expect(res.body.error.message).toMatch(/operation.*not.*supported/i);
  });

  it('-32009 for an unsupported A2A-Version', async () => {
    const res = await rpc(endpoint, 'GetTask', { id: 'x' }, { 'A2A-Version': '9.9' });
    expect(res.body.error.code).toBe(-32009);
  });

  it('push config on an unknown task is -32001, and a private webhook is refused naming the setting', async () => {
    const unknown = await rpc(endpoint, 'tasks/pushNotificationConfig/set', { taskId: 'nope', pushNotificationConfig: { url: 'https://example.com/hook' } });
    expect(unknown.body.error.code).toBe(-32001);
    const sent = await rpc(endpoint, 'message/send', { message: userMessage });
    const privateHook = await rpc(endpoint, 'tasks/pushNotificationConfig/set', { taskId: sent.body.result.id, pushNotificationConfig: { url: 'http://127.0.0.1:9/hook' } });
    expect(privateHook.body.error.code).toBe(-32602);
    expect(privateHook.body.error.message).toContain('SWITCHBOARD_PUSH_ALLOWLIST');
  });

  it('a body over the limit is refused with a clear error and HTTP 413', async () => {
    const huge = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { ...userMessage, parts: [{ kind: 'text', text: 'x'.repeat(10_000) }] } } });
    const res = await post(huge);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe(-32600);
    expect(res.body.error.message).toContain('4096 bytes');
  });

  it('an unknown agent is a 404 naming it, as a JSON-RPC error (a standard body)', async () => {
    const res = await fetch(`${app.url}/a2a/nobody`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32601 } });
    expect(body.error.message).toContain('nobody');
    const card = await fetch(`${app.url}/a2a/nobody/.well-known/agent-card.json`);
    expect(card.status).toBe(404);
    expect((await card.json()).error.message).toContain('nobody');
  });

  it('the server is still up after all of that', async () => {
    const ok = await rpc(endpoint, 'message/send', { message: userMessage });
    expect(ok.body.result.status.state).toBe('completed');
  });
});
