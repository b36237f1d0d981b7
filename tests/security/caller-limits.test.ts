/**
 * Cheap, local per-caller bounds. At most SWITCHBOARD_MAX_PUSH_CONFIGS_PER_TASK push
 * configs per task (a replaced id does not count twice; no Retry-After: only deleting helps), and
 * at most SWITCHBOARD_MAX_STREAMS_PER_CALLER open event streams per caller on an instance, across
 * methods and bindings (-32029 on JSON-RPC, 429 on HTTP+JSON, both with Retry-After); another
 * caller is not affected, and a closed stream frees its slot.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startApp, type AppServer } from '../support/app-server';
import { grpcFailure, grpcOnlyClient, withKey } from '../support/grpc-clients';
import { createApiKey } from '../support/api-keys';
import { collect, rpc, waitFor } from '../support/a2a-clients';

const MAX_PUSH = 3;
const MAX_STREAMS = 2;
let app: AppServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-limits-'));
  const env = { DATABASE_URL: `file:${path.join(dataDir, 'switchboard.db')}` };
  alice = await createApiKey(env, 'alice');
  bob = await createApiKey(env, 'bob');
  app = await startApp(
    { ...env, SWITCHBOARD_GRPC_PORT: String(await freePort()), SWITCHBOARD_PUSH_ALLOWLIST: '127.0.0.1', SWITCHBOARD_MAX_PUSH_CONFIGS_PER_TASK: String(MAX_PUSH), SWITCHBOARD_MAX_STREAMS_PER_CALLER: String(MAX_STREAMS) },
    { dataDir },
  );
});
afterAll(async () => app?.stop());

const as = (key: string) => ({ Authorization: `Bearer ${key}` });
const message = (text: string) => ({ message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }] }, configuration: { blocking: false } });

/** A task of `key`'s that stays working for a minute (canceled by the test). */
async function workingTask(key: string): Promise<string> {
  const sent = await rpc(`${app.url}/a2a/slow`, 'message/send', message('work 60s chunks 2 size 10'), as(key));
  expect(sent.body.result?.id, sent.text).toBeTruthy();
  return sent.body.result.id as string;
}

const setPush = (key: string, taskId: string, id: string) =>
  rpc(`${app.url}/a2a/slow`, 'tasks/pushNotificationConfig/set', { taskId, pushNotificationConfig: { id, url: `http://127.0.0.1:9/hook/${id}` } }, as(key));

/** An open resubscribe stream (JSON-RPC v0.3), once its headers arrived; abort() closes it. */
async function openStream(key: string, taskId: string) {
  const abort = new AbortController();
  const res = await fetch(`${app.url}/a2a/slow`, {
    method: 'POST',
    signal: abort.signal,
    headers: { 'Content-Type': 'application/json', ...as(key) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/resubscribe', params: { id: taskId } }),
  });
  return { res, close: () => abort.abort() };
}

/** switchboard_quota_refusals_total for a limit, from /api/metrics. */
async function metric(limit: string): Promise<number> {
  const text = await (await fetch(`${app.url}/api/metrics`)).text();
  const line = new RegExp(`^switchboard_quota_refusals_total\\{limit="${limit}"\\} (\\d+)$`, 'm').exec(text);
  return line ? Number(line[1]) : 0;
}

describe('push configs per task', () => {
  it(`accepts ${MAX_PUSH}, refuses one more with -32029 naming the setting, and lets an existing id be replaced`, async () => {
    const taskId = await workingTask(alice);
    for (let i = 1; i <= MAX_PUSH; i++) expect((await setPush(alice, taskId, `p${i}`)).body.result, `config p${i}`).toBeTruthy();
    const refused = await setPush(alice, taskId, 'p-extra');
    expect(refused.body.error).toMatchObject({ code: -32029 });
    expect(refused.body.error.message).toMatch(/already has 3 push notification configs.*SWITCHBOARD_MAX_PUSH_CONFIGS_PER_TASK/);
    expect(refused.headers.get('retry-after')).toBeNull();
    expect((await setPush(alice, taskId, 'p1')).body.result).toBeTruthy(); // a replacement
    const listed = await rpc(`${app.url}/a2a/slow`, 'tasks/pushNotificationConfig/list', { id: taskId }, as(alice));
    expect(listed.body.result).toHaveLength(MAX_PUSH);

    await rpc(`${app.url}/a2a/slow`, 'tasks/pushNotificationConfig/delete', { id: taskId, pushNotificationConfigId: 'p2' }, as(alice));
    expect((await setPush(alice, taskId, 'p-extra')).body.result).toBeTruthy();
    expect(await metric('push_configs')).toBe(1);
    await rpc(`${app.url}/a2a/slow`, 'tasks/cancel', { id: taskId }, as(alice));
  });
});

describe('open streams per caller', () => {
  it(`holds ${MAX_STREAMS} per caller, refuses the next on both bindings with Retry-After, and frees a slot when a stream closes`, async () => {
    const taskId = await workingTask(alice);
    const open = [await openStream(alice, taskId), await openStream(alice, taskId)];
    for (const s of open) expect(s.res.headers.get('content-type')).toMatch(/^text\/event-stream/);

    const refused = await rpc(`${app.url}/a2a/slow`, 'tasks/resubscribe', { id: taskId }, as(alice));
    expect(refused.body.error).toMatchObject({ code: -32029 });
    expect(refused.body.error.message).toMatch(/already has 2 open streams.*SWITCHBOARD_MAX_STREAMS_PER_CALLER/);
    expect(refused.headers.get('retry-after')).toBe('5');
    const v10 = await rpc(`${app.url}/a2a/slow`, 'SendStreamingMessage', { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'work 1s' }] } }, { ...as(alice), 'A2A-Version': '1.0' });
    expect(v10.body.error).toMatchObject({ code: -32029, data: [{ reason: 'QUOTA_EXCEEDED', metadata: { retryAfterSeconds: '5' } }] });
    const rest = await fetch(`${app.url}/a2a/slow/tasks/${taskId}:subscribe`, { method: 'POST', headers: { ...as(alice), 'A2A-Version': '1.0' } });
    expect(rest.status).toBe(429);
    expect(rest.headers.get('retry-after')).toBe('5');
    expect((await rest.json()).error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    const grpc = await grpcOnlyClient(app.url, 'slow');
    const overGrpc = await grpcFailure(collect(grpc.resubscribeTask({ id: taskId, tenant: '' }, withKey(alice))));
    expect(overGrpc.status).toBe(8); // RESOURCE_EXHAUSTED

    // Another caller has slots of its own.
    const bobsTask = await workingTask(bob);
    const bobs = await openStream(bob, bobsTask);
    expect(bobs.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    bobs.close();

    expect(await metric('streams')).toBe(4); // JSON-RPC v0.3 and v1.0, HTTP+JSON, gRPC; none for bob

    // A closed stream frees its slot (released when the server sees the connection end).
    open[0].close();
    const again = await waitFor(async () => {
      const s = await openStream(alice, taskId);
      if (s.res.headers.get('content-type')?.startsWith('text/event-stream')) return s;
      await s.res.text();
      return undefined;
    });
    again.close();
    open[1].close();
    await rpc(`${app.url}/a2a/slow`, 'tasks/cancel', { id: taskId }, as(alice));
    await rpc(`${app.url}/a2a/slow`, 'tasks/cancel', { id: bobsTask }, as(bob));
  });
});
