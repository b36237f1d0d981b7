/**
 * The A2A v1.0 gRPC binding, against the reference gRPC client (@a2a-js/sdk
 * 1.3.0) and a real `next start` with SWITCHBOARD_GRPC_PORT: the card lists it, and every
 * operation runs through the same operation layer as JSON-RPC and HTTP+JSON (timing contract
 * and detach, streams, get/list/cancel, subscribe, push configs, errors with the §5.4 status and
 * ErrorInfo reason, bounds, auth and caller scope, required extensions from metadata), the
 * listener's start-up refusal and shutdown, and our own client (lib/client) on this binding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, startApp, type AppServer } from '../support/app-server';
import { artifactText, asTask, collect, lastState, sendParams, streamedArtifactText, TaskState, waitFor } from '../support/a2a-clients';
import { grpcFailure, grpcOnlyClient, rawGrpcCall, sendMessageBytes, withKey } from '../support/grpc-clients';
import { cancelTask, getTask, sendMessage, streamMessage } from '../../lib/client/a2a-client';
import { RpcError, type RpcTarget } from '../../lib/client/json-rpc';
import { TransportError } from '../../lib/client/http-transport';
import type { Message, StreamEvent } from '../../lib/protocol/types';
import type { StreamResponse } from '@a2a-js/sdk';

const GRPC = { OK: 0, INVALID_ARGUMENT: 3, NOT_FOUND: 5, RESOURCE_EXHAUSTED: 8, FAILED_PRECONDITION: 9, UNIMPLEMENTED: 12, UNAUTHENTICATED: 16 };

let app: AppServer;
let grpcPort: number;

beforeAll(async () => {
  grpcPort = await freePort();
  app = await startApp({ SWITCHBOARD_GRPC_PORT: String(grpcPort), SWITCHBOARD_RESPONSE_WINDOW: '1', SWITCHBOARD_LATE_RESULT_GRACE: '60', SWITCHBOARD_DRAIN: '1' });
});
afterAll(async () => app?.stop());

describe('the card', () => {
  it('lists the gRPC interface (target host:port, the agent as tenant) in both generations', async () => {
    for (const headers of [{ 'A2A-Version': '1.0' }, {}] as Record<string, string>[]) {
      const card = await (await fetch(`${app.url}/a2a/slow/.well-known/agent-card.json`, { headers })).json();
      expect(card.supportedInterfaces).toContainEqual({ url: `127.0.0.1:${grpcPort}`, protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: 'slow' });
    }
  });
});

describe('the listener', () => {
  it('a gRPC port that cannot be bound stops start-up, naming the setting', async () => {
    const attempt = startApp({ SWITCHBOARD_GRPC_PORT: String(grpcPort) }); // the running app holds it
    await expect(attempt).rejects.toThrow(new RegExp(`SWITCHBOARD_GRPC_PORT=${grpcPort}: cannot listen on 127\\.0\\.0\\.1:${grpcPort}`));
  });

  it('at SIGTERM an open stream is answered (detached, WORKING with instructions) and ends cleanly before the listener closes', async () => {
    const port = await freePort();
    // The card names the public address; the reference client connects through it.
    const stopping = await startApp({ SWITCHBOARD_GRPC_PORT: String(port), SWITCHBOARD_GRPC_PUBLIC_ADDRESS: `localhost:${port}`, SWITCHBOARD_DRAIN: '0.5' });
    const card = await (await fetch(`${stopping.url}/a2a/slow/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json();
    expect(card.supportedInterfaces).toContainEqual({ url: `localhost:${port}`, protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: 'slow' });
    const client = await grpcOnlyClient(stopping.url, 'slow');
    const stream = client.sendMessageStream(sendParams('work 30s'));
    const events = [(await stream.next()).value as StreamResponse];
    const stopped = stopping.stop();
    for await (const event of stream) events.push(event); // throws if the call is cut instead of ended
    await stopped;
    expect(lastState(events)).toBe(TaskState.TASK_STATE_WORKING);
    const last = events.at(-1)!.payload;
    const metadata = last?.$case === 'statusUpdate' ? last.value.status?.message?.metadata : undefined;
    expect(metadata?.switchboard).toMatchObject({ detached: true });
  });
});

describe('operations over gRPC (reference client)', () => {
  it('SendMessage (blocking) completes for echo', async () => {
    const client = await grpcOnlyClient(app.url, 'echo');
    expect(client.transport.protocolName).toBe('GRPC');
    const task = asTask(await client.sendMessage(sendParams('hello over grpc')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(task, 'echo')).toBe('hello over grpc');
  });

  it('a blocking SendMessage detaches WORKING at the window; GetTask later has the late result', async () => {
    const client = await grpcOnlyClient(app.url, 'slow');
    const started = Date.now();
    const task = asTask(await client.sendMessage(sendParams('work 2.5s')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(Date.now() - started).toBeLessThan(2_400);
    expect(JSON.stringify(task.metadata)).toContain('detached');
    const done = await waitFor(async () => {
      const t = await client.getTask({ id: task.id, historyLength: undefined, tenant: '' });
      return t.status?.state === TaskState.TASK_STATE_COMPLETED && t;
    });
    expect(artifactText(done, 'result')).not.toBe('');
  });

  it('SendStreamingMessage yields the task, the chunks, then the final state; GetTask agrees', async () => {
    const client = await grpcOnlyClient(app.url, 'slow');
    const events = await collect(client.sendMessageStream(sendParams('work 0.3s chunks 5 size 10')));
    expect(events[0].payload?.$case).toBe('task');
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
    const streamed = streamedArtifactText(events);
    expect(streamed.split('\n').filter(Boolean)).toHaveLength(5);
    const id = (events[0].payload!.value as { id: string }).id;
    const stored = await client.getTask({ id, historyLength: 0, tenant: '' });
    expect(artifactText(stored, 'result')).toBe(streamed);
    expect(stored.history).toHaveLength(0);
  });

  it('a stream open at the window gets WORKING (not final) and closes; the task goes on', async () => {
    const client = await grpcOnlyClient(app.url, 'slow');
    const events = await collect(client.sendMessageStream(sendParams('work 2.5s')));
    expect(lastState(events)).toBe(TaskState.TASK_STATE_WORKING);
    const id = (events[0].payload!.value as { id: string }).id;
    await waitFor(async () => (await client.getTask({ id, historyLength: 0, tenant: '' })).status?.state === TaskState.TASK_STATE_COMPLETED);
  });

  it('a caller that cancels its stream detaches the task; it still completes', async () => {
    const client = await grpcOnlyClient(app.url, 'slow');
    const controller = new AbortController();
    const stream = client.sendMessageStream(sendParams('work 0.6s chunks 3'), { signal: controller.signal });
    const first = await stream.next();
    const id = (first.value as { payload: { value: { id: string } } }).payload.value.id;
    controller.abort();
    await stream.return(undefined).catch(() => undefined);
    const done = await waitFor(async () => {
      const t = await client.getTask({ id, historyLength: 0, tenant: '' });
      return t.status?.state === TaskState.TASK_STATE_COMPLETED && t;
    });
    expect((done.metadata?.switchboard as { detached?: boolean }).detached).toBe(true);
    // All three chunks, stored as one text part (appended text is joined).
    expect(done.artifacts[0].parts).toHaveLength(1);
    const text = JSON.stringify(done.artifacts[0].parts[0]);
    for (const n of ['00001', '00002', '00003']) expect(text).toContain(`chunk ${n}`);
  });

  it('ListTasks finds the caller’s tasks at this agent', async () => {
    const client = await grpcOnlyClient(app.url, 'echo');
    const task = asTask(await client.sendMessage(sendParams('list me')));
    const page = await client.listTasks({ tenant: '', contextId: task.contextId, pageSize: 10, pageToken: '', historyLength: 0, includeArtifacts: false, status: 0, statusTimestampAfter: undefined });
    expect(page.tasks.map((t) => t.id)).toEqual([task.id]);
    expect(page.totalSize).toBe(1);
  });

  it('CancelTask ends a running task CANCELED; a second cancel is TaskNotCancelable (FAILED_PRECONDITION)', async () => {
    const client = await grpcOnlyClient(app.url, 'slow');
    const task = asTask(await client.sendMessage(sendParams('work 30s', { returnImmediately: true })));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    const canceled = await client.cancelTask({ id: task.id, metadata: undefined, tenant: '' });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const again = await grpcFailure(client.cancelTask({ id: task.id, metadata: undefined, tenant: '' }));
    expect(again).toMatchObject({ status: GRPC.FAILED_PRECONDITION, name: 'TaskNotCancelableError' });
  });

  it('SubscribeToTask on a running task streams the snapshot, then events to the end', async () => {
    const client = await grpcOnlyClient(app.url, 'slow');
    const task = asTask(await client.sendMessage(sendParams('work 0.8s chunks 3', { returnImmediately: true })));
    const events = await collect(client.resubscribeTask({ id: task.id, tenant: '' }));
    expect(events[0].payload?.$case).toBe('task');
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('push-notification configs: create, get, list, delete', async () => {
    const client = await grpcOnlyClient(app.url, 'slow');
    const task = asTask(await client.sendMessage(sendParams('work 30s', { returnImmediately: true })));
    const config = { tenant: '', id: 'grpc-hook', taskId: task.id, url: 'https://example.com/webhook', token: 'tok-1', authentication: undefined };
    const created = await client.createTaskPushNotificationConfig(config);
    expect(created).toMatchObject({ id: 'grpc-hook', taskId: task.id, url: 'https://example.com/webhook' });
    const got = await client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'grpc-hook' });
    expect(got.url).toBe('https://example.com/webhook');
    const listed = await client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 0, pageToken: '' });
    expect(listed.configs.map((c) => c.id)).toEqual(['grpc-hook']);
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'grpc-hook' });
    expect((await client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 0, pageToken: '' })).configs).toEqual([]);
    await client.cancelTask({ id: task.id, metadata: undefined, tenant: '' });
  });
});

describe('errors and bounds', () => {
  it('an unknown task is TaskNotFound with NOT_FOUND and the ErrorInfo reason', async () => {
    const client = await grpcOnlyClient(app.url, 'echo');
    const failure = await grpcFailure(client.getTask({ id: 'no-such-task', historyLength: undefined, tenant: '' }));
    expect(failure).toMatchObject({ status: GRPC.NOT_FOUND, name: 'TaskNotFoundError' });
  });

  it('bad params are INVALID_ARGUMENT naming the field', async () => {
    const client = await grpcOnlyClient(app.url, 'echo');
    const params = sendParams('x');
    params.message.messageId = '-starts-with-a-dash';
    const failure = await grpcFailure(client.sendMessage(params));
    expect(failure.status).toBe(GRPC.INVALID_ARGUMENT);
    expect(failure.message).toContain('params.message.messageId');
  });

  it('a tenant that names no served agent is NOT_FOUND; an empty one is the default agent', async () => {
    const client = await grpcOnlyClient(app.url, 'echo');
    const failure = await grpcFailure(client.sendMessage({ ...sendParams('x'), tenant: 'nobody' }));
    expect(failure.status).toBe(GRPC.NOT_FOUND);
    expect(failure.message).toContain('no served agent "nobody"');
  });

  it('a request over SWITCHBOARD_MAX_BODY_BYTES is RESOURCE_EXHAUSTED before it is decoded', async () => {
    const client = await grpcOnlyClient(app.url, 'echo');
    const failure = await grpcFailure(client.sendMessage(sendParams('x'.repeat(1_100_000))));
    expect(failure.status).toBe(GRPC.RESOURCE_EXHAUSTED);
  });

  const message = { messageId: 'm-raw', role: 'ROLE_USER', parts: [{ text: 'raw' }] };

  it('raw calls: a well-formed SendMessage succeeds (the baseline for the refusals below)', async () => {
    expect(await rawGrpcCall(`127.0.0.1:${grpcPort}`, 'SendMessage', sendMessageBytes({ message }))).toMatchObject({ code: GRPC.OK });
  });

  it('an A2A-Version other than 1.x is VersionNotSupported (UNIMPLEMENTED per v1.0 §5.4, reason in the status details)', async () => {
    const outcome = await rawGrpcCall(`127.0.0.1:${grpcPort}`, 'SendMessage', sendMessageBytes({ message }), { 'a2a-version': '0.3' });
    expect(outcome).toMatchObject({ code: GRPC.UNIMPLEMENTED, reason: 'VERSION_NOT_SUPPORTED' });
  });

  it('bytes that are not the request message are INVALID_ARGUMENT, not INTERNAL', async () => {
    const outcome = await rawGrpcCall(`127.0.0.1:${grpcPort}`, 'SendMessage', Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]));
    expect(outcome.code).toBe(GRPC.INVALID_ARGUMENT);
    expect(outcome.details).toContain('not a SendMessage request message');
  });

  it('metadata nested deeper than 64 levels is INVALID_ARGUMENT, as on the JSON bindings', async () => {
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 70; i++) deep = { d: deep };
    const outcome = await rawGrpcCall(`127.0.0.1:${grpcPort}`, 'SendMessage', sendMessageBytes({ message: { ...message, messageId: 'm-deep', metadata: deep } }));
    expect(outcome.code).toBe(GRPC.INVALID_ARGUMENT);
    expect(outcome.details).toContain('nests deeper than 64');
  });
});

describe('our own client (lib/client) over gRPC', () => {
  const target = (slug: string, headers: Record<string, string> = {}): RpcTarget => ({ endpoint: `grpc://127.0.0.1:${grpcPort}/${slug}`, version: '1.0', headers });
  const message = (text: string): Message => ({ kind: 'message', messageId: `m-${Math.random().toString(36).slice(2)}`, role: 'user', parts: [{ kind: 'text', text }] });
  const opts = { timeoutMs: 10_000 };

  it('sends, streams and reads tasks in the internal model', async () => {
    const answer = await sendMessage(target('echo'), message('from lib/client'), true, opts);
    expect(answer.kind).toBe('task');
    const task = answer as Extract<typeof answer, { kind: 'task' }>;
    expect(task.status.state).toBe('completed');
    expect((await getTask(target('echo'), task.id, opts)).artifacts?.[0].parts).toEqual([{ kind: 'text', text: 'from lib/client' }]);
    const events: StreamEvent[] = [];
    for await (const batch of streamMessage(target('slow'), message('work 0.2s chunks 2'), opts)) events.push(...batch);
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', status: { state: 'completed' } });
  });

  it('reads the peer’s errors as the JSON-RPC codes the follow logic tests', async () => {
    const notFound = await getTask(target('echo'), 'no-such-task', opts).catch((err) => err);
    expect(notFound).toBeInstanceOf(RpcError);
    expect(notFound.code).toBe(-32001);
    const done = (await sendMessage(target('echo'), message('x'), true, opts)) as { id: string };
    const notCancelable = await cancelTask(target('echo'), done.id, opts).catch((err) => err);
    expect(notCancelable).toMatchObject({ code: -32002 });
  });
});

describe('auth and caller scope', () => {
  let secured: AppServer;
  let securedGrpcPort: number;
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-grpc-auth-'));
    const env = { DATABASE_URL: `file:${path.join(dataDir, 'switchboard.db')}` };
    for (const name of ['alice', 'bob']) {
      const out = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/keys.ts', 'create', name], { env: { ...process.env, ...env }, encoding: 'utf8' });
      expect(out.status, out.stderr).toBe(0);
      keys[name] = /\b(sb_[A-Za-z0-9_-]+)/.exec(out.stdout)![1];
    }
    securedGrpcPort = await freePort();
    secured = await startApp({ ...env, SWITCHBOARD_GRPC_PORT: String(securedGrpcPort), SWITCHBOARD_DRAIN: '1' }, { dataDir });
  });
  afterAll(async () => secured?.stop());

  it('refuses a call without a key, or with a wrong one, as UNAUTHENTICATED', async () => {
    const client = await grpcOnlyClient(secured.url, 'echo');
    expect(await grpcFailure(client.sendMessage(sendParams('x')))).toMatchObject({ status: GRPC.UNAUTHENTICATED });
    const wrong = await grpcFailure(client.sendMessage(sendParams('x'), withKey('sb_wrong')));
    expect(wrong.status).toBe(GRPC.UNAUTHENTICATED);
    expect(wrong.message).toContain('invalid API key');
  });

  it('a key reaches its own tasks; another key gets TaskNotFound for them', async () => {
    const client = await grpcOnlyClient(secured.url, 'echo');
    const task = asTask(await client.sendMessage(sendParams('mine'), { serviceParameters: { 'x-api-key': keys.alice } }));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const own = await client.getTask({ id: task.id, historyLength: undefined, tenant: '' }, withKey(keys.alice));
    expect(own.id).toBe(task.id);
    const foreign = await grpcFailure(client.getTask({ id: task.id, historyLength: undefined, tenant: '' }, withKey(keys.bob)));
    expect(foreign).toMatchObject({ status: GRPC.NOT_FOUND, name: 'TaskNotFoundError' });
    const foreignCancel = await grpcFailure(client.cancelTask({ id: task.id, metadata: undefined, tenant: '' }, withKey(keys.bob)));
    expect(foreignCancel.name).toBe('TaskNotFoundError');
    const refused = await getTask({ endpoint: `grpc://127.0.0.1:${securedGrpcPort}/echo`, version: '1.0', headers: {} }, task.id, { timeoutMs: 10_000 }).catch((err) => err);
    expect(refused).toBeInstanceOf(TransportError);
    expect(refused.status).toBe(401);
    const viaLibClient = await getTask({ endpoint: `grpc://127.0.0.1:${securedGrpcPort}/echo`, version: '1.0', headers: { 'X-API-Key': keys.alice } }, task.id, { timeoutMs: 10_000 });
    expect(viaLibClient.id).toBe(task.id);
    const bobsList = await client.listTasks({ tenant: '', contextId: task.contextId, pageSize: 10, pageToken: '', historyLength: 0, includeArtifacts: false, status: 0, statusTimestampAfter: undefined }, withKey(keys.bob));
    expect(bobsList.tasks).toEqual([]);
  });
});

describe('required extensions over gRPC', () => {
  const REQUIRED = 'https://example.com/extensions/citations/v1';
  let cited: AppServer;
  let citedGrpcPort: number;

  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-grpc-ext-'));
    const answer = path.resolve('tests/fixtures/agents/sleep-then-answer.mjs');
    const config = { agents: [{ slug: 'cited', name: 'Cited', extensions: [{ uri: REQUIRED, required: true }], launcher: { type: 'process', command: [answer, '0', 'cited', 'answer'] } }] };
    fs.writeFileSync(path.join(dir, 'switchboard.json'), JSON.stringify(config));
    citedGrpcPort = await freePort();
    cited = await startApp({ SWITCHBOARD_CONFIG: path.join(dir, 'switchboard.json'), SWITCHBOARD_GRPC_PORT: String(citedGrpcPort), SWITCHBOARD_DRAIN: '1' });
  });
  afterAll(async () => cited?.stop());

  it('a message without the URI in a2a-extensions metadata is ExtensionSupportRequired; with it, it runs', async () => {
    const send = (messageId: string) => sendMessageBytes({ tenant: 'cited', message: { messageId, role: 'ROLE_USER', parts: [{ text: 'hi' }] } });
    const refused = await rawGrpcCall(`127.0.0.1:${citedGrpcPort}`, 'SendMessage', send('m-ext-1'));
    expect(refused).toMatchObject({ code: GRPC.FAILED_PRECONDITION, reason: 'EXTENSION_SUPPORT_REQUIRED' });
    expect(refused.details).toContain(REQUIRED);
    const accepted = await rawGrpcCall(`127.0.0.1:${citedGrpcPort}`, 'SendMessage', send('m-ext-2'), { 'a2a-extensions': REQUIRED });
    expect(accepted.code).toBe(GRPC.OK);
  });
});
