/**
 * The A2A v1.0 HTTP+JSON binding, with the a2a-js 1.3.0 REST transport (a client
 * that prefers HTTP+JSON, picked from the card) and raw HTTP for the statuses and the AIP-193
 * error format (spec §5.4, §11.6).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientFactory, ClientFactoryOptions, type Client } from '@a2a-js/sdk/client';
import { RestTaskNotFoundError, RestTaskNotCancelableError } from '@a2a-js/sdk/errors';
import { startApp, type AppServer } from '../support/app-server';
import { asTask, collect, lastState, sendParams, streamedArtifactText, TaskState, waitFor } from '../support/a2a-clients';

let app: AppServer;

beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_RESPONSE_WINDOW: '10', SWITCHBOARD_PUSH_ALLOWLIST: 'hooks.example.test' });
});
afterAll(async () => app?.stop());

async function restClient(slug: string): Promise<Client> {
  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: ['HTTP+JSON'] }));
  return factory.createFromUrl(`${app.url}/a2a/${slug}/`);
}

const V10 = { 'A2A-Version': '1.0' };

async function http(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...V10, ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', allow: res.headers.get('allow'), text, body: text.trimStart().startsWith('{') ? JSON.parse(text) : null };
}

const message = (text: string) => ({ message: { messageId: `rest-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] } });

describe('the a2a-js 1.3.0 REST transport', () => {
  it('is chosen from the card (HTTP+JSON 1.0 in supportedInterfaces)', async () => {
    const client = await restClient('echo');
    expect(client.transport.protocolName).toBe('HTTP+JSON');
  });

  it('sends, gets, lists and cancels', async () => {
    const client = await restClient('echo');
    const task = asTask(await client.sendMessage(sendParams('over rest')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const got = await client.getTask({ id: task.id, historyLength: 0, tenant: '' });
    expect(got.id).toBe(task.id);
    expect(got.history).toHaveLength(0);
    const listed = await client.listTasks({ tenant: '', contextId: task.contextId, status: 0, pageSize: 10, pageToken: '', historyLength: undefined, statusTimestampAfter: undefined, includeArtifacts: true });
    expect(listed.tasks.map((t) => t.id)).toEqual([task.id]);

    const slow = await restClient('slow');
    const running = asTask(await slow.sendMessage(sendParams('work 20s', { returnImmediately: true })));
    expect(running.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    const canceled = await slow.cancelTask({ id: running.id, tenant: '', metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await expect(slow.cancelTask({ id: running.id, tenant: '', metadata: undefined })).rejects.toBeInstanceOf(RestTaskNotCancelableError);
    await expect(slow.getTask({ id: 'no-such-task', historyLength: undefined, tenant: '' })).rejects.toBeInstanceOf(RestTaskNotFoundError);
  });

  it('streams a task to its end, and resubscribes to a running one', async () => {
    const client = await restClient('slow');
    const events = await collect(client.sendMessageStream(sendParams('work 1s chunks 4')));
    expect(events[0].payload?.$case).toBe('task');
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(streamedArtifactText(events).split('\n').filter(Boolean)).toHaveLength(4);

    const running = asTask(await client.sendMessage(sendParams('work 1.5s chunks 3', { returnImmediately: true })));
    const followed = await collect(client.resubscribeTask({ id: running.id, tenant: '' }));
    expect(followed[0].payload?.$case).toBe('task');
    expect(lastState(followed)).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('creates, gets, lists and deletes push configs', async () => {
    const client = await restClient('slow');
    const task = asTask(await client.sendMessage(sendParams('work 20s', { returnImmediately: true })));
    const created = await client.createTaskPushNotificationConfig({ tenant: '', id: 'rest-cfg', taskId: task.id, url: 'https://hooks.example.test/a2a', token: 't', authentication: undefined });
    expect(created).toMatchObject({ id: 'rest-cfg', taskId: task.id, url: 'https://hooks.example.test/a2a' });
    expect((await client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'rest-cfg' })).url).toBe('https://hooks.example.test/a2a');
    expect((await client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 0, pageToken: '' })).configs.map((c) => c.id)).toEqual(['rest-cfg']);
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'rest-cfg' });
    expect((await client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 0, pageToken: '' })).configs).toEqual([]);
    await client.cancelTask({ id: task.id, tenant: '', metadata: undefined });
  });
});

describe('HTTP+JSON statuses and errors (AIP-193 with ErrorInfo)', () => {
  it('an unknown task is 404 NOT_FOUND with TASK_NOT_FOUND', async () => {
    const res = await http('GET', '/a2a/echo/tasks/nope');
    expect(res.status).toBe(404);
    expect(res.type).toMatch(/application\/json/);
    expect(res.body.error).toMatchObject({
      code: 404,
      status: 'NOT_FOUND',
      details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' }],
    });
  });

  it('cancelling an ended task is 409; subscribing to one is 400 UNSUPPORTED_OPERATION', async () => {
    const sent = await http('POST', '/a2a/echo/message:send', message('x'));
    expect(sent.status).toBe(200);
    const id = sent.body.task.id;
    const cancel = await http('POST', `/a2a/echo/tasks/${id}:cancel`);
    expect(cancel.status).toBe(409);
    expect(cancel.body.error.details[0].reason).toBe('TASK_NOT_CANCELABLE');
    const subscribe = await http('POST', `/a2a/echo/tasks/${id}:subscribe`);
    expect(subscribe.status).toBe(400);
    expect(subscribe.body.error.details[0].reason).toBe('UNSUPPORTED_OPERATION');
  });

  it('bad params are 400 INVALID_ARGUMENT naming the field; proto names are read too', async () => {
    const bad = await http('POST', '/a2a/echo/message:send', { message: { messageId: 'm', role: 'ROLE_USER' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ status: 'INVALID_ARGUMENT' });
    expect(bad.body.error.message).toContain('params.message.parts');
    const snake = await http('POST', '/a2a/echo/message:send', { message: { message_id: 'snake-rest', role: 'ROLE_USER', parts: [{ text: 'x' }] } });
    expect(snake.body.task.status.state).toBe('TASK_STATE_COMPLETED');
    const badQuery = await http('GET', '/a2a/echo/tasks?pageSize=abc');
    expect(badQuery.status).toBe(400);
    expect(badQuery.body.error.message).toContain('params.pageSize');
  });

  it('ListTasks reads its query, with the status as TASK_STATE_* or as its short name', async () => {
    const sent = await http('POST', '/a2a/echo/message:send', message('listed'));
    const contextId = sent.body.task.contextId;
    for (const status of ['TASK_STATE_COMPLETED', 'completed']) {
      const res = await http('GET', `/a2a/echo/tasks?contextId=${contextId}&status=${status}&pageSize=5&includeArtifacts=true`);
      expect(res.status).toBe(200);
      expect(res.body.tasks.map((t: { id: string }) => t.id)).toEqual([sent.body.task.id]);
      expect(res.body.tasks[0].artifacts.length).toBeGreaterThan(0);
    }
  });

  it('a non-JSON Content-Type is 415, a wrong verb 405, an unknown path 404, another A2A-Version 400', async () => {
    const text = await http('POST', '/a2a/echo/message:send', 'hello', { 'Content-Type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(text.body.error.details[0].reason).toBe('CONTENT_TYPE_NOT_SUPPORTED');
    const verb = await http('DELETE', '/a2a/echo/message:send');
    expect(verb.status).toBe(405);
    const path = await http('GET', '/a2a/echo/nothing/here');
    expect(path.status).toBe(404);
    const version = await http('GET', '/a2a/echo/tasks/x', undefined, { 'A2A-Version': '0.3' });
    expect(version.status).toBe(400);
    expect(version.body.error.details[0].reason).toBe('VERSION_NOT_SUPPORTED');
  });

  // The binding's own errors are precise, in its own shape, and never a 500.
  it('a wrong verb is 405 UNIMPLEMENTED (PUT and PATCH too), an unknown agent a standard 404', async () => {
    for (const verb of ['DELETE', 'PUT', 'PATCH']) {
      const res = await http(verb, '/a2a/echo/message:send');
      expect(res.status, verb).toBe(405);
      expect(res.body.error).toMatchObject({ code: 405, status: 'UNIMPLEMENTED' });
    }
    const unknown = await http('POST', '/a2a/nobody/message:send', message('x'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
    expect(unknown.body.error.message).toMatch(/no served agent "nobody"/);
  });

  it('a body over the limit is 413; a body nested deeper than 64 levels is 400 and stored nowhere', async () => {
    const big = await http('POST', '/a2a/echo/message:send', message('x'.repeat(1_100_000)));
    expect(big.status).toBe(413);
    expect(big.body.error).toMatchObject({ code: 413, status: 'INVALID_ARGUMENT' });
    const deep = { message: { ...message('deep').message, metadata: JSON.parse(`${'{"a":'.repeat(70)}1${'}'.repeat(70)}`) } };
    const res = await http('POST', '/a2a/echo/message:send', deep);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/nests deeper than 64 levels/);
    const shallow = { message: { ...message('ok').message, metadata: JSON.parse(`${'{"a":'.repeat(50)}1${'}'.repeat(50)}`) } };
    expect((await http('POST', '/a2a/echo/message:send', shallow)).status).toBe(200);
  });

  it('malformed percent-encoding in a path is a precise 400 on /a2a, /api and the pages, never a 500', async () => {
    for (const path of ['/a2a/echo/tasks/%E0%A4%A', '/a2a/%zz', '/a2a/echo/tasks/x%zz:cancel']) {
      const res = await http('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: expect.stringMatching(/path: malformed percent-encoding/) });
    }
    for (const path of ['/api/tasks/%E0%A4%A', '/api/peers/%zz', '/tasks/%E0%A4%A', '/%C3']) {
      const res = await http('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.body.error).toEqual({ code: 'invalid_path', message: 'path: malformed percent-encoding', field: 'path' });
    }
    // Well-formed escapes still reach the routes.
    expect((await http('GET', '/a2a/echo/tasks/no%20such')).status).toBe(404);
  });

  it('a stream is SSE of StreamResponse objects, no JSON-RPC envelope', async () => {
    const res = await http('POST', '/a2a/slow/message:stream', message('work 0.3s chunks 2'));
    expect(res.type).toMatch(/^text\/event-stream/);
    const events = res.text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
    expect(Object.keys(events[0])).toEqual(['task']);
    expect(events.some((e) => 'artifactUpdate' in e)).toBe(true);
    expect(events.every((e) => !('jsonrpc' in e))).toBe(true);
    const done = await waitFor(async () => {
      const got = await http('GET', `/a2a/slow/tasks/${events[0].task.id}`);
      return got.body.status.state === 'TASK_STATE_COMPLETED' ? got : null;
    });
    expect(done.status).toBe(200);
  });
});
