/**
 * Callers are isolated from each other. Two real API keys (made with the keys
 * script) against every task-scoped method in both protocol versions, through the task's own
 * agent route and another agent's route: outside its scope a caller gets exactly the answer for
 * a task that does not exist. Outbound tasks are unreachable over A2A; a contextId belongs to
 * its owner (another owner naming it gets a fresh context, not the launcher session); a
 * foreign resubscribe writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp, type AppServer } from '../support/app-server';
import { rpc, waitFor } from '../support/a2a-clients';
import { dispatch, readTask, waitForTask } from '../support/dispatch-api';

type Version = '0.3' | '1.0';
interface Key {
  id: string;
  name: string;
  secret: string;
}

let app: AppServer;
let alice: Key;
let bob: Key;
const WEBHOOK = 'http://127.0.0.1:9/hook';

function createKey(env: Record<string, string>, name: string): Key {
  const out = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/keys.ts', 'create', name], { env: { ...process.env, ...env }, encoding: 'utf8' });
  expect(out.status, out.stderr).toBe(0);
  const [, id] = /\(id ([0-9a-f-]+)\)/.exec(out.stdout)!;
  const [, secret] = /\b(sb_[A-Za-z0-9_-]+)/.exec(out.stdout)!;
  return { id, name, secret };
}

beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-scope-'));
  const env = { DATABASE_URL: `file:${path.join(dataDir, 'switchboard.db')}` };
  alice = createKey(env, 'alice');
  bob = createKey(env, 'bob');
  const agent = path.resolve('tests/fixtures/agents/session-agent.mjs');
  const config = {
    agents: [
      {
        slug: 'memo',
        name: 'Memo',
        description: 'Remembers the session of its context.',
        launcher: {
          type: 'process',
          command: [process.execPath, agent, '{prompt}'],
          resume: [process.execPath, agent, '--resume', '{session_id}', '{prompt}'],
          output: { format: 'json', replyField: 'result.text', sessionIdField: 'session_id' },
        },
      },
    ],
  };
  fs.writeFileSync(path.join(dataDir, 'switchboard.json'), JSON.stringify(config));
  app = await startApp({ ...env, SWITCHBOARD_CONFIG: path.join(dataDir, 'switchboard.json'), SWITCHBOARD_PUSH_ALLOWLIST: '127.0.0.1' }, { dataDir });
});
afterAll(async () => app?.stop());

/** Method names and params per version, for every task-scoped operation. */
const WIRE = {
  '0.3': {
    send: (text: string, o: { taskId?: string; contextId?: string; background?: boolean } = {}) => [
      'message/send',
      { message: { messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...(o.taskId ? { taskId: o.taskId } : {}), ...(o.contextId ? { contextId: o.contextId } : {}) }, configuration: { blocking: !o.background } },
    ],
    get: (id: string) => ['tasks/get', { id }],
    list: (p: Record<string, unknown> = {}) => ['tasks/list', p],
    cancel: (id: string) => ['tasks/cancel', { id }],
    subscribe: (id: string) => ['tasks/resubscribe', { id }],
    subscribeAlias: (id: string) => ['tasks/subscribe', { id }],
    pushSet: (taskId: string, token: string) => ['tasks/pushNotificationConfig/set', { taskId, pushNotificationConfig: { id: 'cfg', url: `${WEBHOOK}?${token}`, token } }],
    pushGet: (taskId: string) => ['tasks/pushNotificationConfig/get', { id: taskId, pushNotificationConfigId: 'cfg' }],
    pushList: (taskId: string) => ['tasks/pushNotificationConfig/list', { id: taskId }],
    pushDelete: (taskId: string) => ['tasks/pushNotificationConfig/delete', { id: taskId, pushNotificationConfigId: 'cfg' }],
  },
  '1.0': {
    send: (text: string, o: { taskId?: string; contextId?: string; background?: boolean } = {}) => [
      'SendMessage',
      { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...(o.taskId ? { taskId: o.taskId } : {}), ...(o.contextId ? { contextId: o.contextId } : {}) }, configuration: { returnImmediately: Boolean(o.background) } },
    ],
    get: (id: string) => ['GetTask', { id }],
    list: (p: Record<string, unknown> = {}) => ['ListTasks', p],
    cancel: (id: string) => ['CancelTask', { id }],
    subscribe: (id: string) => ['SubscribeToTask', { id }],
    subscribeAlias: (id: string) => ['SubscribeToTask', { id }],
    pushSet: (taskId: string, token: string) => ['CreateTaskPushNotificationConfig', { taskId, id: 'cfg', url: `${WEBHOOK}?${token}`, token }],
    pushGet: (taskId: string) => ['GetTaskPushNotificationConfig', { taskId, id: 'cfg' }],
    pushList: (taskId: string) => ['ListTaskPushNotificationConfigs', { taskId }],
    pushDelete: (taskId: string) => ['DeleteTaskPushNotificationConfig', { taskId, id: 'cfg' }],
  },
} as const;

type Call = readonly [string, unknown] | (string | Record<string, unknown>)[];

async function call(key: Key, slug: string, [method, params]: Call) {
  return rpc(`${app.url}/a2a/${slug}`, method as string, params, { Authorization: `Bearer ${key.secret}` });
}

interface WireTask {
  id: string;
  contextId: string;
  status: { state: string; message?: { parts: { text?: string }[] } };
  artifacts?: { parts: { text?: string }[] }[];
}

/** The task in a send/get/cancel result, either version. */
function taskOf(body: { result?: unknown; error?: unknown }): WireTask {
  if (!body.result) throw new Error(`expected a result, got ${JSON.stringify(body.error)}`);
  const r = body.result as { task?: WireTask } & WireTask;
  return r.task ?? r;
}

const replyText = (task: WireTask) => (task.artifacts ?? []).flatMap((a) => a.parts).map((p) => p.text ?? '').join('') || (task.status.message?.parts ?? []).map((p) => p.text ?? '').join('');

/** The error a method gives for an id that never existed, with that id masked. */
async function missingAnswer(key: Key, slug: string, build: (id: string) => Call) {
  const id = randomUUID();
  const res = await call(key, slug, build(id));
  return JSON.stringify(res.body.error).replaceAll(id, '<id>');
}

/** Asserts `build(taskId)` answers -32001, byte for byte as for a task that does not exist. */
async function expectAsIfMissing(key: Key, slug: string, taskId: string, build: (id: string) => Call) {
  const res = await call(key, slug, build(taskId));
  expect(res.status).toBe(200);
  expect(res.body?.error?.code, `${String(build(taskId)[0])} at /a2a/${slug}: ${res.text.slice(0, 300)}`).toBe(-32001);
  expect(JSON.stringify(res.body.error).replaceAll(taskId, '<id>')).toBe(await missingAnswer(key, slug, build));
}

const eventTypes = async (taskId: string) => (await readTask(app.url, taskId)).events.map((e) => e.type);

describe.each(['0.3', '1.0'] as Version[])('two API keys, A2A v%s', (version) => {
  const w = WIRE[version];
  let askTask: WireTask; // alice's, input-required at /a2a/ask
  let slowTask: WireTask; // alice's, running and detached at /a2a/slow

  beforeAll(async () => {
    askTask = taskOf((await call(alice, 'ask', w.send('what do you need?'))).body);
    expect(askTask.status.state).toMatch(/input-required|INPUT_REQUIRED/);
    slowTask = taskOf((await call(alice, 'slow', w.send('work 300s', { background: true }))).body);
    const set = await call(alice, 'ask', w.pushSet(askTask.id, 'alice-token'));
    expect(set.body.error).toBeUndefined();
    await waitFor(async () => (await eventTypes(slowTask.id)).includes('detached'));
  });

  const probes = (taskId: string) => [
    w.get,
    (id: string) => w.send('let me answer', { taskId: id }),
    w.cancel,
    w.subscribe,
    w.subscribeAlias,
    (id: string) => w.pushSet(id, 'bob-token'),
    w.pushGet,
    w.pushList,
    w.pushDelete,
  ].map((build) => ({ taskId, build }));

  it("another key gets -32001, as for a missing task, from every method, at the task's route and another agent's", async () => {
    for (const [task, own] of [[askTask, 'ask'], [slowTask, 'slow']] as const) {
      for (const slug of [own, 'echo']) {
        for (const { taskId, build } of probes(task.id)) await expectAsIfMissing(bob, slug, taskId, build);
      }
    }
    // Nothing of alice's changed: the question is still open, the task still runs, her push
    // config (and its token) is hers alone, and no foreign subscriber was recorded.
    expect(taskOf((await call(alice, 'ask', w.get(askTask.id))).body).status.state).toMatch(/input-required|INPUT_REQUIRED/);
    expect(taskOf((await call(alice, 'slow', w.get(slowTask.id))).body).status.state).toMatch(/working|WORKING/);
    const config = await call(alice, 'ask', w.pushGet(askTask.id));
    expect(JSON.stringify(config.body.result)).toContain('alice-token');
    expect(JSON.stringify(config.body.result)).not.toContain('bob-token');
    expect(await eventTypes(slowTask.id)).not.toContain('reattached');
  });

  it("the owner reaches its task only at that task's agent route", async () => {
    for (const { taskId, build } of probes(askTask.id)) await expectAsIfMissing(alice, 'echo', taskId, build);
    expect(taskOf((await call(alice, 'ask', w.get(askTask.id))).body).id).toBe(askTask.id);
  });

  it('ListTasks shows a caller only its own tasks at that agent', async () => {
    const bobs = taskOf((await call(bob, 'ask', w.send('bob asks'))).body);
    const ids = async (key: Key, slug: string, params: Record<string, unknown> = {}) => {
      const res = await call(key, slug, w.list({ pageSize: 100, ...params }));
      return (res.body.result.tasks as WireTask[]).map((t) => t.id);
    };
    const bobSees = await ids(bob, 'ask');
    expect(bobSees).toContain(bobs.id);
    expect(bobSees).not.toContain(askTask.id);
    expect(await ids(bob, 'slow')).not.toContain(slowTask.id);
    expect(await ids(bob, 'ask', { contextId: askTask.contextId })).toEqual([]);
    const aliceSees = await ids(alice, 'ask');
    expect(aliceSees).toContain(askTask.id);
    expect(aliceSees).not.toContain(bobs.id);
    expect(aliceSees).not.toContain(slowTask.id);
    expect(await ids(alice, 'echo')).not.toContain(askTask.id);
  });

  it('a foreign resubscribe records nothing; the owner’s does (a reattached event)', async () => {
    const before = await readTask(app.url, slowTask.id);
    await expectAsIfMissing(bob, 'slow', slowTask.id, w.subscribe);
    const after = await readTask(app.url, slowTask.id);
    expect(after.task).toMatchObject({ state: 'working' });
    expect(after.events.length).toBe(before.events.length);

    const abort = new AbortController();
    const [method, params] = w.subscribe(slowTask.id);
    const res = await fetch(`${app.url}/a2a/slow`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${alice.secret}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal: abort.signal,
    });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    await waitFor(async () => (await eventTypes(slowTask.id)).includes('reattached'));
    abort.abort();
  });

  it("another owner naming a context gets a fresh one, never the first owner's launcher session", async () => {
    const first = taskOf((await call(alice, 'memo', w.send('my secret is 42'))).body);
    const session = /^new (sess-\S+): my secret is 42$/.exec(replyText(first))?.[1];
    expect(session, replyText(first)).toBeDefined();

    const foreign = taskOf((await call(bob, 'memo', w.send('what did I tell you?', { contextId: first.contextId }))).body);
    expect(foreign.contextId).not.toBe(first.contextId);
    expect(replyText(foreign)).toMatch(/^new sess-\S+: what did I tell you\?$/);
    expect(replyText(foreign)).not.toContain(session);
    // Nor does the same owner share a context across agents.
    const otherAgent = taskOf((await call(alice, 'echo', w.send('echo here', { contextId: first.contextId }))).body);
    expect(otherAgent.contextId).not.toBe(first.contextId);

    const again = taskOf((await call(alice, 'memo', w.send('and now?', { contextId: first.contextId }))).body);
    expect(again.contextId).toBe(first.contextId);
    expect(replyText(again)).toBe(`resumed ${session}: and now?`);
  });

  it('the owner cancels its own running task', async () => {
    const canceled = taskOf((await call(alice, 'slow', w.cancel(slowTask.id))).body);
    expect(canceled.status.state).toMatch(/canceled|CANCELED/);
  });
});

describe('open mode: one shared anonymous owner', () => {
  let open: AppServer;
  beforeAll(async () => {
    open = await startApp({ SWITCHBOARD_PUSH_ALLOWLIST: '127.0.0.1' });
  });
  afterAll(async () => open?.stop());

  it('every method works without a key, and the dashboard shows the anonymous owner', async () => {
    const anon = (slug: string, [method, params]: Call) => rpc(`${open.url}/a2a/${slug}`, method as string, params);
    const w = WIRE['1.0'];
    const asked = taskOf((await anon('ask', w.send('question?'))).body);
    expect(taskOf((await anon('ask', w.get(asked.id))).body).id).toBe(asked.id);
    expect((await anon('ask', w.pushSet(asked.id, 'anon-token'))).body.error).toBeUndefined();
    expect(JSON.stringify((await anon('ask', w.pushList(asked.id))).body.result)).toContain('anon-token');
    const listed = (await anon('ask', w.list())).body.result.tasks as WireTask[];
    expect(listed.map((t) => t.id)).toContain(asked.id);
    const answered = taskOf((await anon('ask', w.send('here you go', { taskId: asked.id }))).body);
    expect(answered.status.state).toBe('TASK_STATE_COMPLETED');
    const sameContext = taskOf((await anon('ask', w.send('again', { contextId: asked.contextId }))).body);
    expect(sameContext.contextId).toBe(asked.contextId);
    const slow = taskOf((await anon('slow', w.send('work 300s', { background: true }))).body);
    expect(taskOf((await anon('slow', w.cancel(slow.id))).body).status.state).toBe('TASK_STATE_CANCELED');
    expect((await readTask(open.url, asked.id)).task).toMatchObject({ owner: { id: 'anonymous', name: 'anonymous' } });
    // The self peer is anonymous too while no key exists: one shared owner.
    const outbound = await dispatch(open.url, { peer: 'self', text: 'to myself', mode: 'blocking' });
    const remote = (await waitForTask(open.url, outbound)).task.remoteTaskId!;
    expect((await readTask(open.url, remote)).task).toMatchObject({ owner: { id: 'anonymous', name: 'anonymous' } });
    expect(taskOf((await anon('echo', w.get(remote))).body).id).toBe(remote);
  });
});

describe('contexts and outbound tasks', () => {
  it('two owners claiming the same new contextId at once: one keeps it, the other gets a fresh one', async () => {
    for (let round = 0; round < 5; round++) {
      const contextId = `shared-${randomUUID()}`;
      const [a, b] = await Promise.all([alice, bob].map(async (key) => taskOf((await call(key, 'echo', WIRE['0.3'].send('hi', { contextId }))).body)));
      expect([a.contextId, b.contextId].filter((c) => c === contextId)).toHaveLength(1);
    }
  });

  it('an outbound task id, and the task its peer made, read as missing over A2A', async () => {
    // Through the built-in `self` peer: the outbound task is ours, the inbound one it made at
    // our echo agent belongs to `self`; neither is alice's.
    const outbound = await dispatch(app.url, { peer: 'self', text: 'to myself', mode: 'blocking' });
    const done = await waitForTask(app.url, outbound);
    expect(done.task).toMatchObject({ direction: 'outbound', state: 'completed' });
    const remote = done.task.remoteTaskId!;
    expect((await readTask(app.url, remote)).task).toMatchObject({ direction: 'inbound', owner: { id: 'self', name: 'self' } });
    for (const version of ['0.3', '1.0'] as Version[]) {
      const w = WIRE[version];
      for (const id of [outbound, remote]) {
        for (const build of [w.get, w.cancel, w.subscribe, (t: string) => w.send('hijack', { taskId: t }), (t: string) => w.pushSet(t, 'x'), w.pushGet, w.pushList, w.pushDelete]) {
          for (const slug of ['echo', 'slow']) await expectAsIfMissing(alice, slug, id, build);
        }
      }
    }
    expect((await readTask(app.url, outbound)).events.map((e) => e.type)).toEqual(done.events.map((e) => e.type));
  });

  it('the dashboard sees every task with its owner', async () => {
    const mine = taskOf((await call(alice, 'echo', WIRE['1.0'].send('owned'))).body);
    const view = await readTask(app.url, mine.id);
    expect(view.task).toMatchObject({ owner: { id: alice.id, name: 'alice' } });
    const list = await (await fetch(`${app.url}/api/tasks?limit=200`)).json();
    const row = (list.tasks as { id: string; owner: unknown }[]).find((t) => t.id === mine.id);
    expect(row?.owner).toEqual({ id: alice.id, name: 'alice' });
  });
});
