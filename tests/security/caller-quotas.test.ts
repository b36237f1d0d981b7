/**
 * Per-caller quotas, on a real server (both stores). Requests per second on every
 * binding (JSON-RPC -32029 with Retry-After, HTTP+JSON 429 with Retry-After, gRPC
 * RESOURCE_EXHAUSTED), open tasks per caller and bytes stored per window, each refusing past its
 * limit with QuotaExceeded; another caller is unaffected; an API key's own quota (set with the
 * real `keys quota` command) raises or lowers a limit; refusals count per limit in
 * switchboard_quota_refusals_total. Limits are scaled down by settings.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startApp, type AppServer } from '../support/app-server';
import { grpcFailure, grpcOnlyClient, withKey } from '../support/grpc-clients';
import { createApiKeyRecord, type CreatedKey } from '../support/api-keys';
import { rpc, sendParams } from '../support/a2a-clients';
import { freshPgDatabase, testStore } from '../support/postgres';
import { dispatch, waitForTask } from '../support/dispatch-api';

const RATE = 5;
const OPEN_TASKS = 2;
const STORED_BYTES = 20_000;
const BURST = 40;

async function databaseEnv(prefix: string): Promise<{ env: Record<string, string>; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const url = testStore() === 'postgresql' ? await freshPgDatabase() : `file:${path.join(dataDir, 'switchboard.db')}`;
  return { env: { DATABASE_URL: url }, dataDir };
}

const as = (key: CreatedKey) => ({ Authorization: `Bearer ${key.secret}` });

async function metric(app: AppServer, limit: string): Promise<number> {
  const text = await (await fetch(`${app.url}/api/metrics`)).text();
  const line = new RegExp(`^switchboard_quota_refusals_total\\{limit="${limit}"\\} (\\d+)$`, 'm').exec(text);
  return line ? Number(line[1]) : 0;
}

describe('requests per second per caller', () => {
  let app: AppServer;
  let alice: CreatedKey;
  let bob: CreatedKey;
  let roomy: CreatedKey;
  let tight: CreatedKey;

  beforeAll(async () => {
    const { env, dataDir } = await databaseEnv('switchboard-rate-');
    alice = await createApiKeyRecord(env, 'alice');
    bob = await createApiKeyRecord(env, 'bob');
    roomy = await createApiKeyRecord(env, 'roomy', ['requestsPerSecond=1000']);
    tight = await createApiKeyRecord(env, 'tight', ['requestsPerSecond=1']);
    app = await startApp({ ...env, SWITCHBOARD_GRPC_PORT: String(await freePort()), SWITCHBOARD_MAX_REQUESTS_PER_SECOND_PER_CALLER: String(RATE) }, { dataDir });
  });
  afterAll(async () => app?.stop());

  /** BURST GetTask calls for a missing task at once over JSON-RPC v1.0: answers are -32001 or -32029. */
  const burst = (key: CreatedKey) =>
    Promise.all(Array.from({ length: BURST }, () => rpc(`${app.url}/a2a/echo`, 'GetTask', { id: 'no-such-task' }, { ...as(key), 'A2A-Version': '1.0' })));

  it(`refuses past ${RATE}/s on JSON-RPC with -32029, QUOTA_EXCEEDED and Retry-After; another caller is unaffected`, async () => {
    const answers = await burst(alice);
    const bobs = await rpc(`${app.url}/a2a/echo`, 'GetTask', { id: 'no-such-task' }, { ...as(bob), 'A2A-Version': '1.0' });
    const refused = answers.filter((a) => a.body.error?.code === -32029);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.every((a) => [-32001, -32029].includes(a.body.error?.code))).toBe(true);
    expect(refused[0].status).toBe(200);
    expect(refused[0].headers.get('retry-after')).toBe('1');
    expect(refused[0].body.error.message).toMatch(/more than 5 requests this second.*SWITCHBOARD_MAX_REQUESTS_PER_SECOND_PER_CALLER/);
    expect(refused[0].body.error.data).toMatchObject([{ reason: 'QUOTA_EXCEEDED', metadata: { retryAfterSeconds: '1' } }]);
    expect(bobs.body.error.code).toBe(-32001);
  });

  it('refuses on HTTP+JSON with 429 and Retry-After, and on gRPC with RESOURCE_EXHAUSTED', async () => {
    const rest = await Promise.all(Array.from({ length: BURST }, () => fetch(`${app.url}/a2a/echo/tasks/no-such-task`, { headers: { ...as(alice), 'A2A-Version': '1.0' } })));
    const limited = rest.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(rest.every((r) => r.status === 404 || r.status === 429)).toBe(true);
    expect(limited[0].headers.get('retry-after')).toBe('1');
    expect((await limited[0].json()).error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED', details: [{ reason: 'QUOTA_EXCEEDED' }] });

    const grpc = await grpcOnlyClient(app.url, 'echo');
    const failures = await Promise.all(Array.from({ length: BURST }, () => grpcFailure(grpc.getTask({ id: 'no-such-task', historyLength: 0, tenant: '' }, withKey(alice.secret)))));
    expect(failures.some((f) => f.status === 8)).toBe(true); // RESOURCE_EXHAUSTED
    expect(failures.every((f) => f.status === 8 || f.status === 5)).toBe(true); // or NOT_FOUND
  });

  it("a key's own quota raises the limit (none refused) or lowers it", async () => {
    const roomys = await burst(roomy);
    expect(roomys.filter((a) => a.body.error?.code === -32029)).toHaveLength(0);

    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await rpc(`${app.url}/a2a/echo`, 'tasks/get', { id: 'no-such-task' }, as(tight)));
    // Five calls in a row reach at most a few one-second windows: at most one passes in each.
    expect(answers.filter((a) => a.body.error?.code === -32029).length).toBeGreaterThan(0);
    expect(await metric(app, 'requests')).toBeGreaterThan(0);
  });

  it("never refuses the hub's own `self` calls", async () => {
    const before = await metric(app, 'requests');
    // 15 dispatches to the hub's own agent at once: each is at least one A2A call as `self`, well past 5 a second.
    const ids = await Promise.all(Array.from({ length: 15 }, (_, i) => dispatch(app.url, { peer: 'self', text: `to myself ${i}`, mode: 'blocking' })));
    const ended = await Promise.all(ids.map((id) => waitForTask(app.url, id)));
    expect(ended.map((t) => t.task.state)).toEqual(ids.map(() => 'completed'));
    expect(await metric(app, 'requests')).toBe(before);
  });
});

describe('open tasks and stored bytes per caller', () => {
  let app: AppServer;
  let alice: CreatedKey;
  let bob: CreatedKey;
  let wide: CreatedKey;
  let writer: CreatedKey;
  let bulk: CreatedKey;

  beforeAll(async () => {
    const { env, dataDir } = await databaseEnv('switchboard-quotas-');
    alice = await createApiKeyRecord(env, 'alice');
    bob = await createApiKeyRecord(env, 'bob');
    wide = await createApiKeyRecord(env, 'wide', ['openTasks=4']);
    writer = await createApiKeyRecord(env, 'writer');
    bulk = await createApiKeyRecord(env, 'bulk', ['storedBytes=1000000']);
    app = await startApp(
      {
        ...env,
        SWITCHBOARD_GRPC_PORT: String(await freePort()),
        SWITCHBOARD_MAX_OPEN_TASKS_PER_CALLER: String(OPEN_TASKS),
        SWITCHBOARD_MAX_STORED_BYTES_PER_CALLER: String(STORED_BYTES),
      },
      { dataDir },
    );
  });
  afterAll(async () => app?.stop());

  const message = (text: string, extra: Record<string, unknown> = {}) => ({ message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...extra }, configuration: { blocking: false } });
  const startSlow = (key: CreatedKey) => rpc(`${app.url}/a2a/slow`, 'message/send', message('work 60s chunks 2 size 10'), as(key));
  const cancel = (key: CreatedKey, id: string) => rpc(`${app.url}/a2a/slow`, 'tasks/cancel', { id }, as(key));

  it(`refuses a caller's task past ${OPEN_TASKS} open ones on every binding; another caller and a raised key are unaffected`, async () => {
    const open = [await startSlow(alice), await startSlow(alice)].map((r) => r.body.result.id as string);
    expect(open).toHaveLength(2);

    const refused = await startSlow(alice);
    expect(refused.body.error).toMatchObject({ code: -32029 });
    expect(refused.body.error.message).toMatch(/has 2 open tasks \(at most 2, SWITCHBOARD_MAX_OPEN_TASKS_PER_CALLER/);
    expect(refused.headers.get('retry-after')).toBe('5');
    const rest = await fetch(`${app.url}/a2a/slow/message:send`, {
      method: 'POST',
      headers: { ...as(alice), 'Content-Type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'work 60s' }] }, configuration: { returnImmediately: true } }),
    });
    expect(rest.status).toBe(429);
    expect(rest.headers.get('retry-after')).toBe('5');
    const grpc = await grpcOnlyClient(app.url, 'slow');
    expect((await grpcFailure(grpc.sendMessage(sendParams('work 60s', { returnImmediately: true }), withKey(alice.secret)))).status).toBe(8);
    // Continuing one of its open tasks is not a new task: it is not refused by the open-task limit.
    const followUp = await rpc(`${app.url}/a2a/slow`, 'message/send', message('more', { taskId: open[0] }), as(alice));
    expect(followUp.body.error?.code).not.toBe(-32029);

    const bobs = await startSlow(bob);
    expect(bobs.body.result?.id, bobs.text).toBeTruthy();
    const wides = [];
    for (let i = 0; i < 4; i++) wides.push(await startSlow(wide));
    expect(wides.every((w) => w.body.result?.id)).toBe(true);
    expect((await startSlow(wide)).body.error).toMatchObject({ code: -32029 });

    // An ended task frees its place.
    await cancel(alice, open[1]);
    const again = await startSlow(alice);
    expect(again.body.result?.id, again.text).toBeTruthy();
    expect(await metric(app, 'open_tasks')).toBe(4); // alice on three bindings, wide once; none for bob
    for (const id of [open[0], again.body.result.id]) await cancel(alice, id);
    await cancel(bob, bobs.body.result.id);
    for (const w of wides) await cancel(wide, w.body.result.id);
  });

  it(`refuses a new task once a caller's tasks stored ${STORED_BYTES} bytes in the window, with the time left as Retry-After`, async () => {
    const big = 'x'.repeat(12_000); // stored twice: the message and echo's artifact
    const send = (key: CreatedKey) => rpc(`${app.url}/a2a/echo`, 'message/send', { ...message(big), configuration: { blocking: true } }, as(key));
    const first = await send(writer);
    expect(first.body.result?.status?.state, first.text).toBe('completed');

    const refused = await send(writer);
    expect(refused.body.error).toMatchObject({ code: -32029 });
    expect(refused.body.error.message).toMatch(/stored \d+ bytes in the last 3600 s window \(at most 20000, SWITCHBOARD_MAX_STORED_BYTES_PER_CALLER/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3000);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Reading is not refused: only new tasks spend the budget.
    expect((await rpc(`${app.url}/a2a/echo`, 'tasks/get', { id: first.body.result.id }, as(writer))).body.result?.id).toBe(first.body.result.id);

    expect((await send(bob)).body.result?.status?.state).toBe('completed');
    for (let i = 0; i < 3; i++) expect((await send(bulk)).body.result?.status?.state).toBe('completed');
    expect(await metric(app, 'stored_bytes')).toBe(1);
  });
});
