/**
 * The edges of a relay: credentials stay on their own leg, the trace goes across,
 * callers are isolated (the inbound task is the key's, the outbound child nobody's), and bad
 * peers (garbage, stall, a task that vanishes) end the caller's task FAILED with the reason.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc } from '../support/a2a-clients';
import { startApp, type AppServer } from '../support/app-server';
import { readTask } from '../support/dispatch-api';
import { startSdkPeer, type SdkPeer } from '../support/sdk-peer';
import { startBadPeer, type BadPeer } from '../support/bad-peer';

interface Key {
  name: string;
  secret: string;
}

let app: AppServer;
let peer: SdkPeer;
let bad: BadPeer;
let alice: Key;
let bob: Key;
const PEER_SECRET = 'peer-secret-0123456789';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

function createKey(env: Record<string, string>, name: string): Key {
  const out = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/keys.ts', 'create', name], { env: { ...process.env, ...env }, encoding: 'utf8' });
  expect(out.status, out.stderr).toBe(0);
  return { name, secret: /\b(sb_[A-Za-z0-9_-]+)/.exec(out.stdout)![1] };
}

beforeAll(async () => {
  [peer, bad] = await Promise.all([startSdkPeer(), startBadPeer()]);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-relay-'));
  const env = { DATABASE_URL: `file:${path.join(dataDir, 'switchboard.db')}` };
  alice = createKey(env, 'alice');
  bob = createKey(env, 'bob');
  const config = {
    peers: [{ name: 'guarded', url: peer.url, auth: { type: 'bearer', token: PEER_SECRET } }],
    agents: [
      { slug: 'relay-sec', name: 'Guarded relay', relay: { peer: 'guarded' } },
      ...(['garbage', 'stall', 'no-result'] as const).map((mode) => ({ slug: `relay-${mode}`, name: mode, relay: { url: bad.at(mode) } })),
    ],
  };
  fs.writeFileSync(path.join(dataDir, 'switchboard.json'), JSON.stringify(config));
  app = await startApp({ ...env, SWITCHBOARD_CONFIG: path.join(dataDir, 'switchboard.json'), SWITCHBOARD_CLIENT_TIMEOUT: '2' }, { dataDir });
});
afterAll(async () => {
  await Promise.all([app?.stop(), peer?.close(), bad?.close()]);
});

const auth = (key: Key) => ({ Authorization: `Bearer ${key.secret}` });

function send(slug: string, key: Key, text: string, headers: Record<string, string> = {}) {
  const message = { messageId: randomUUID(), role: 'user', kind: 'message', parts: [{ kind: 'text', text }] };
  return rpc(`${app.url}/a2a/${slug}`, 'message/send', { message, configuration: { blocking: true } }, { ...auth(key), ...headers });
}

describe('two legs, two sets of credentials, one trace', () => {
  let taskId: string;
  let answer: string;

  beforeAll(async () => {
    const res = await send('relay-sec', alice, 'chunks 2 every 20ms', { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ status: { state: 'completed' } });
    taskId = res.body.result.id;
    answer = res.text;
  });

  it("the peer gets the peer's credentials, never the caller's", () => {
    const calls = peer.requests.filter((r) => r.method);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call.headers.authorization).toBe(`Bearer ${PEER_SECRET}`);
      expect(JSON.stringify(call.headers)).not.toContain(alice.secret);
    }
  });

  it("the caller never sees the peer's credentials", async () => {
    expect(answer).not.toContain(PEER_SECRET);
    const got = await rpc(`${app.url}/a2a/relay-sec`, 'tasks/get', { id: taskId }, auth(alice));
    expect(got.text).not.toContain(PEER_SECRET);
  });

  it("the caller's trace continues to the peer", () => {
    const sends = peer.requests.filter((r) => r.method && /send|stream/i.test(r.method));
    expect(sends.length).toBeGreaterThan(0);
    for (const call of sends) expect(String(call.headers.traceparent)).toContain(TRACE_ID);
  });

  it('another key cannot reach the inbound task; no caller reaches the outbound child', async () => {
    const foreign = await rpc(`${app.url}/a2a/relay-sec`, 'tasks/get', { id: taskId }, auth(bob));
    expect(foreign.body.error).toMatchObject({ code: -32001 });
    const { children } = (await readTask(app.url, taskId)) as unknown as { children: { id: string }[] };
    expect(children).toHaveLength(1);
    for (const key of [alice, bob]) {
      const child = await rpc(`${app.url}/a2a/relay-sec`, 'tasks/get', { id: children[0].id }, auth(key));
      expect(child.body.error).toMatchObject({ code: -32001 });
      const cancel = await rpc(`${app.url}/a2a/relay-sec`, 'tasks/cancel', { id: children[0].id }, auth(key));
      expect(cancel.body.error).toMatchObject({ code: -32001 });
    }
  });
});

describe('bad peers end the caller\'s task FAILED with the reason', () => {
  it.each([
    ['garbage', /^relay peer relay\.relay-garbage: /],
    ['stall', /^relay peer relay\.relay-stall: lost contact with the peer/],
    ['no-result', /^relay peer relay\.relay-no-result: peer lost the task/],
  ])('%s', async (mode, reason) => {
    const res = await send(`relay-${mode}`, alice, 'hello');
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ status: { state: 'failed' } });
    const view = await readTask(app.url, res.body.result.id);
    expect(view.task.endReason).toMatch(reason);
    expect(bad.calls[mode as 'garbage'].length).toBeGreaterThan(0);
  });
});

describe("a relay's dispatches reuse a fresh card", () => {
  it('two turns in a row read the peer card at most once between them', async () => {
    const before = bad.cardReads['no-result'];
    for (let i = 0; i < 2; i++) expect((await send('relay-no-result', alice, 'again')).body.result).toMatchObject({ status: { state: 'failed' } });
    expect(bad.cardReads['no-result'] - before).toBeLessThanOrEqual(1);
  });
});
