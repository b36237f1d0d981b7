/**
 * Callers cannot write into the delegation graph, and it does not leak topology.
 * Key B names key A's task as the parent of its own (`metadata.switchboard.parentTask`, with a
 * phishing URL): B's task is not linked under A's, the operator sees the claim as text only,
 * and A's `children` answer over A2A carries no peer names or URLs of the hub.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { createApiKey } from '../support/api-keys';
import { rpc } from '../support/a2a-clients';
import { dispatch, readTask, waitForTask } from '../support/dispatch-api';

let app: AppServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-graph-'));
  const env = { DATABASE_URL: `file:${path.join(dataDir, 'switchboard.db')}` };
  alice = await createApiKey(env, 'alice');
  bob = await createApiKey(env, 'bob');
  app = await startApp(env, { dataDir });
});
afterAll(async () => app?.stop());

const send = (key: string, text: string, metadata?: Record<string, unknown>) =>
  rpc(`${app.url}/a2a/slow`, 'message/send', { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...(metadata ? { metadata } : {}) }, configuration: { blocking: false } }, { authorization: `Bearer ${key}` });

interface Detail {
  task: { parentTaskId: string | null; callerParent: { taskId: string; url: string | null } | null };
  children: { id: string }[];
}

describe('the delegation graph', () => {
  it("a caller-named parent is a claim: B's task is not linked under A's, and its URL is no link", async () => {
    const aTask = (await send(alice, 'work 3s')).body.result.id as string;
    const claim = { switchboard: { parentTask: { taskId: aTask, url: 'https://phish.example/login' } } };
    const bTask = (await send(bob, 'work 0.1s', claim)).body.result.id as string;
    const b = (await readTask(app.url, bTask)) as unknown as Detail;
    expect(b.task.parentTaskId).toBeNull();
    expect(b.task.callerParent).toEqual({ taskId: aTask, url: 'https://phish.example/login' });
    const a = (await readTask(app.url, aTask)) as unknown as Detail;
    expect(a.children.map((c) => c.id)).not.toContain(bTask);
    // A forged proof is no proof.
    const forged = { switchboard: { parentTask: { taskId: aTask, proof: 'x'.repeat(43) } } };
    const cTask = (await send(bob, 'work 0.1s', forged)).body.result.id as string;
    expect(((await readTask(app.url, cTask)) as unknown as Detail).task.parentTaskId).toBeNull();
  });

  it("an operator's link is kept; A's children over A2A show no peer names or URLs", async () => {
    const aTask = (await send(alice, 'work 5s')).body.result.id as string;
    const childId = await dispatch(app.url, { url: `${app.url}/a2a/echo`, text: 'hi', mode: 'blocking', parentTaskId: aTask });
    // (A hub's own dispatch reaching itself is linked: tests/observability/delegation.test.ts.)
    await waitForTask(app.url, childId);
    expect(((await readTask(app.url, aTask)) as unknown as Detail).children.map((c) => c.id)).toEqual([childId]);

    const got = await rpc(`${app.url}/a2a/slow`, 'tasks/get', { id: aTask, metadata: { switchboard: { children: true } } }, { authorization: `Bearer ${alice}` });
    const children = got.body.result.metadata.switchboard.children as { id: string; peerName: unknown; peerUrl: unknown }[];
    expect(children.map((c) => c.id)).toEqual([childId]);
    expect(children[0]).toMatchObject({ peerName: null, peerUrl: null });
    expect(JSON.stringify(got.body)).not.toContain(app.url);
  });
});
