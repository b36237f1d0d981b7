/**
 * The protocol defects the official A2A TCK found, each with the client that hit
 * it (raw HTTP as the suite sends it, or real a2a-js clients of both generations).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientFactory } from '@a2a-js/sdk/client';
import { ClientFactory as ClientFactory0314 } from 'a2a-sdk-0314/client';
import { startApp, type AppServer } from '../support/app-server';
import { asTask, rpc, sendParams, sseResults, TaskState } from '../support/a2a-clients';

let app: AppServer;

beforeAll(async () => {
  // The webhook host is allowlisted so registration does not depend on DNS here.
  app = await startApp({ SWITCHBOARD_PUSH_ALLOWLIST: 'hooks.example.test' });
});
afterAll(async () => app?.stop());

const v03Message = (text: string) => ({ messageId: `m-${Math.random()}`, role: 'user', parts: [{ kind: 'text', text }] });
const V10 = { 'A2A-Version': '1.0' };

async function post(path: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${app.url}${path}`, { method: 'POST', redirect: 'manual', headers: { 'Content-Type': 'application/json', ...headers }, body });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', text, body: text.trimStart().startsWith('{') ? JSON.parse(text) : null };
}

describe('trailing slash: the same endpoints, no redirect', () => {
  it.each(['/a2a/', '/a2a/echo/'])('POST %s answers JSON-RPC', async (path) => {
    const res = await post(path, JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'message/send', params: { message: v03Message('slash') } }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 7, result: { kind: 'task', status: { state: 'completed' } } });
  });

  it.each(['/.well-known/agent-card.json/', '/a2a/echo/.well-known/agent-card.json/', '/.well-known/agent.json/'])('GET %s serves the card', async (path) => {
    const res = await fetch(`${app.url}${path}`, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect((await res.json()).name).toBe('Echo');
  });
});

/** The AgentCard fields of the v1.0 proto (lf.a2a.v1.AgentCard), in their JSON names. */
const V10_CARD_FIELDS = new Set(['name', 'description', 'supportedInterfaces', 'provider', 'version', 'documentationUrl', 'capabilities', 'securitySchemes', 'securityRequirements', 'defaultInputModes', 'defaultOutputModes', 'skills', 'signatures', 'iconUrl']);
const V10_CAPABILITY_FIELDS = new Set(['streaming', 'pushNotifications', 'extensions', 'extendedAgentCard']);

describe('agent card generations', () => {
  it('a card request with A2A-Version: 1.0 gets a pure v1.0 card; without it, the dual card', async () => {
    const pure = await (await fetch(`${app.url}/a2a/slow/.well-known/agent-card.json`, { headers: V10 })).json();
    expect(Object.keys(pure).filter((k) => !V10_CARD_FIELDS.has(k))).toEqual([]);
    expect(Object.keys(pure.capabilities).filter((k) => !V10_CAPABILITY_FIELDS.has(k))).toEqual([]);
    expect(pure.supportedInterfaces.map((i: { protocolBinding: string; protocolVersion: string }) => `${i.protocolBinding} ${i.protocolVersion}`)).toEqual(['JSONRPC 1.0', 'HTTP+JSON 1.0', 'JSONRPC 0.3']);

    const dualRes = await fetch(`${app.url}/a2a/slow/.well-known/agent-card.json`);
    expect(dualRes.headers.get('vary')).toMatch(/A2A-Version/i);
    const dual = await dualRes.json();
    expect(dual).toMatchObject({ protocolVersion: '0.3.0', url: `${app.url}/a2a/slow`, preferredTransport: 'JSONRPC' });
    expect(dual.supportedInterfaces).toEqual(pure.supportedInterfaces);
  });

  it('carries ETag and Last-Modified (v1.0 §8.6); If-None-Match with the ETag gets 304', async () => {
    const first = await fetch(`${app.url}/.well-known/agent-card.json`, { headers: V10 });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(Number.isNaN(Date.parse(first.headers.get('last-modified') ?? ''))).toBe(false);
    const again = await fetch(`${app.url}/.well-known/agent-card.json`, { headers: { ...V10, 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    const dual = await fetch(`${app.url}/.well-known/agent-card.json`, { headers: { 'If-None-Match': etag! } });
    expect(dual.status).toBe(200); // the other generation is another representation
    expect(dual.headers.get('etag')).not.toBe(etag);
  });

  it('the a2a-js 1.3.0 client (sends A2A-Version: 1.0) works from the pure card', async () => {
    const client = await new ClientFactory().createFromUrl(`${app.url}/a2a/echo/`);
    const task = asTask(await client.sendMessage(sendParams('pure card')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('the a2a-js 0.3.14 client (no A2A-Version) works from the dual card', async () => {
    const client = await new ClientFactory0314().createFromUrl(`${app.url}/a2a/echo/`);
    const result = await client.sendMessage({ message: { kind: 'message', messageId: 'legacy-card', role: 'user', parts: [{ kind: 'text', text: 'dual card' }] } });
    expect(result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
  });
});

describe('ProtoJSON field names (v1.0): proto names are read like their JSON names', () => {
  it('SendMessage, GetTask, ListTasks and a flat CreateTaskPushNotificationConfig with snake_case names', async () => {
    const sent = await rpc(`${app.url}/a2a/echo`, 'SendMessage', {
      message: { message_id: 'snake-1', role: 'ROLE_USER', parts: [{ text: 'snake', media_type: 'text/plain' }], metadata: { keep_me: 1 } },
      configuration: { return_immediately: false, history_length: 1 },
    }, V10);
    expect(sent.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(sent.body.result.task.history).toHaveLength(1);
    const id = sent.body.result.task.id;

    const got = await rpc(`${app.url}/a2a/echo`, 'GetTask', { id, history_length: 0 }, V10);
    expect(got.body.result.id).toBe(id);
    expect(got.body.result.history ?? []).toHaveLength(0);

    const listed = await rpc(`${app.url}/a2a/echo`, 'ListTasks', { page_size: 1, include_artifacts: true }, V10);
    expect(listed.body.result.pageSize).toBe(1);

    const created = await rpc(`${app.url}/a2a/echo`, 'CreateTaskPushNotificationConfig', {
      task_id: id,
      id: 'cfg-1',
      url: 'https://hooks.example.test/a2a',
      token: 'tok',
      authentication: { scheme: 'Bearer', credentials: 'secret' },
    }, V10);
    expect(created.body.error?.message ?? '').not.toContain('taskId');
    expect(created.body.result).toMatchObject({ taskId: id, id: 'cfg-1', url: 'https://hooks.example.test/a2a' });
    const fetched = await rpc(`${app.url}/a2a/echo`, 'GetTaskPushNotificationConfig', { task_id: id, id: 'cfg-1' }, V10);
    expect(fetched.body.result.id).toBe('cfg-1');
  });

  it('keeps the keys of metadata as sent', async () => {
    const sent = await rpc(`${app.url}/a2a/echo`, 'SendMessage', { message: { messageId: 'snake-2', role: 'ROLE_USER', parts: [{ text: 'x' }] }, metadata: { caller_ref: 'a_b' } }, V10);
    expect(sent.body.result.task.metadata.caller_ref).toBe('a_b');
  });
});

describe('content type, decided before parsing', () => {
  const nonJson = "{'jsonrpc': '2.0', 'id': 1, 'method': 'SendMessage'}";

  it('v1.0: a text/plain POST gets -32005 ContentTypeNotSupported with ErrorInfo', async () => {
    const res = await post('/a2a/echo', nonJson, { 'Content-Type': 'text/plain', ...V10 });
    expect(res.status).toBe(200);
    expect(res.body.error).toMatchObject({ code: -32005, data: [{ reason: 'CONTENT_TYPE_NOT_SUPPORTED' }] });
    expect(res.body.error.message).toMatch(/content type/i);
  });

  it('v0.3: a text/plain POST gets HTTP 415 with the JSON-RPC error, even if the body is JSON', async () => {
    const res = await post('/a2a/echo', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'x' } }), { 'Content-Type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe(-32005);
  });

  it('application/json with a charset and +json types are JSON', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/a2a+json']) {
      const res = await post('/a2a/echo', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'x' } }), { 'Content-Type': type });
      expect(res.body.error.code).toBe(-32001);
    }
  });
});

describe('A2A-Version as a query parameter (v1.0 §3.6)', () => {
  it('is read like the header: by the version check, the error generation and the card', async () => {
    const unsupported = await post('/a2a/echo?A2A-Version=9.9', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }));
    expect(unsupported.body.error.code).toBe(-32009);
    const v1 = await post('/a2a/echo?A2A-Version=1.0', 'not json', { 'Content-Type': 'text/plain' });
    expect(v1.status).toBe(200);
    expect(v1.body.error).toMatchObject({ code: -32005, data: [{ reason: 'CONTENT_TYPE_NOT_SUPPORTED' }] });
    const card = await (await fetch(`${app.url}/a2a/echo/.well-known/agent-card.json?A2A-Version=1.0`)).json();
    expect(card.url).toBeUndefined();
  });
});

describe('requests without an id (the 0.3 suite)', () => {
  it('an unknown method is -32601 and invalid params are -32602, with id null', async () => {
    const unknown = await post('/a2a/echo', '{"jsonrpc":"2.0","method":"message/ssend","params":{}}');
    expect(unknown.body).toMatchObject({ id: null, error: { code: -32601 } });
    const invalid = await post('/a2a/echo', '{"jsonrpc":"2.0","method":"message/send","params":{"message":{}}}');
    expect(invalid.body).toMatchObject({ id: null, error: { code: -32602 } });
    const badParams = await post('/a2a/echo', '{"jsonrpc":"2.0","method":"tasks/get","params":"x"}');
    expect(badParams.body.error.code).toBe(-32602);
  });
});

describe('streaming errors', () => {
  it('v0.3 tasks/resubscribe on an unknown task answers an event stream carrying the error event', async () => {
    const res = await post('/a2a/echo', JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tasks/resubscribe', params: { id: 'no-such-task' } }));
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/event-stream/);
    expect(res.text).toContain('event: error');
    expect(sseResults(res.text)[0]).toMatchObject({ id: 3, error: { code: -32001 } });
  });

  it('v0.3 message/stream with invalid params answers the -32602 as an event stream', async () => {
    const res = await post('/a2a/echo', JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'message/stream', params: { message: {} } }));
    expect(res.type).toMatch(/^text\/event-stream/);
    expect(sseResults(res.text)[0]).toMatchObject({ error: { code: -32602 } });
  });

  it('v1.0 SubscribeToTask on an unknown task answers plain JSON', async () => {
    const res = await rpc(`${app.url}/a2a/echo`, 'SubscribeToTask', { id: 'no-such-task' }, V10);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body.error.code).toBe(-32001);
  });
});

describe('the default agent (SWITCHBOARD_DEFAULT_AGENT)', () => {
  it('serves the named agent at the root card and /a2a', async () => {
    const other = await startApp({ SWITCHBOARD_DEFAULT_AGENT: 'ask' });
    try {
      const card = await (await fetch(`${other.url}/.well-known/agent-card.json`)).json();
      expect(card).toMatchObject({ name: 'Ask', url: `${other.url}/a2a` });
      const sent = await fetch(`${other.url}/a2a`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: v03Message('hello') } }) });
      expect((await sent.json()).result.status.state).toBe('input-required');
    } finally {
      await other.stop();
    }
  });

  it('refuses to start when it names no served agent, naming the setting', async () => {
    await expect(startApp({ SWITCHBOARD_DEFAULT_AGENT: 'nobody' })).rejects.toThrow(/SWITCHBOARD_DEFAULT_AGENT=nobody names no served agent/);
  });
});
