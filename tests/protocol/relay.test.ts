/**
 * Relay agents — served agents whose work a peer does (docs/relay.md). Real peers
 * (@a2a-js/sdk 1.3.0 and 0.2.5 servers), real clients of both versions, the built app.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientFactory as ClientFactory0314 } from 'a2a-sdk-0314/client';
import { artifactText, asTask, collect, lastState, partsText, sdkClient, sendParams, streamedArtifactText, TaskState, waitFor } from '../support/a2a-clients';
import { freePort, startApp, type AppServer } from '../support/app-server';
import { readTask, type TaskView } from '../support/dispatch-api';
import { sdkChunkText, startSdkPeer, type SdkPeer } from '../support/sdk-peer';
import { startLegacySdkPeer } from '../support/legacy-sdk-peer';
import { expectInputRoundTrip, taskEnded } from '../support/relay-checks';

let app: AppServer;
/** A second Switchboard as the peer (its built-in `ask` and `slow` agents). */
let hub: AppServer;
let peer13: SdkPeer;
let peer025: SdkPeer;

const chunks = (n: number) => Array.from({ length: n }, (_, i) => sdkChunkText(i)).join('');

beforeAll(async () => {
  [peer13, peer025, hub] = await Promise.all([startSdkPeer(), startLegacySdkPeer('0.2.5'), startApp()]);
  const downPort = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-config-'));
  const config = {
    peers: [{ name: 'sdk13', url: peer13.url }],
    agents: [
      { slug: 'relay13', relay: { peer: 'sdk13' }, responseWindowSeconds: 30 },
      { slug: 'relay025', name: 'Legacy relay', relay: { url: peer025.url }, responseWindowSeconds: 30 },
      { slug: 'relay-short', relay: { peer: 'sdk13' }, responseWindowSeconds: 1, lateResultGraceSeconds: 120 },
      { slug: 'relay-down', relay: { url: `http://127.0.0.1:${downPort}` } },
      { slug: 'relay-hub-ask', relay: { url: `${hub.url}/a2a/ask` } },
      { slug: 'relay-hub-slow', relay: { url: `${hub.url}/a2a/slow` } },
      { slug: 'relay-grace', relay: { peer: 'sdk13' }, responseWindowSeconds: 1, lateResultGraceSeconds: 2 },
    ],
  };
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
  // Our client timeout to the peers (2 s) is shorter than the long tasks below.
  app = await startApp({ SWITCHBOARD_CONFIG: path.join(dir, 'config.json'), SWITCHBOARD_CLIENT_TIMEOUT: '2' });
});
afterAll(async () => {
  await Promise.all([app?.stop(), hub?.stop(), peer13?.close(), peer025?.close()]);
});

interface Detail extends TaskView {
  children: { id: string; direction: string; state: string; remoteTaskId: string | null }[];
}
const detail = (taskId: string) => readTask(app.url, taskId) as Promise<Detail>;

describe('relay agents are served like any agent', () => {
  it('a v0.3 client (a2a-sdk 0.3.14) through the relay reaches an @a2a-js/sdk 1.3.0 peer; the result is the peer\'s', async () => {
    const client = await new ClientFactory0314().createFromUrl(`${app.url}/a2a/relay13/`);
    const result = await client.sendMessage({ message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'chunks 3 every 50ms' }] } });
    expect(result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    const task = result as { id: string; artifacts?: { parts: { kind: string; text?: string }[] }[] };
    expect(task.artifacts?.flatMap((a) => a.parts).map((p) => p.text).join('')).toBe(chunks(3));
    // The inbound task is the parent of the outbound one, which the peer ran.
    const view = await detail(task.id);
    expect(view.children).toHaveLength(1);
    expect(view.children[0]).toMatchObject({ direction: 'outbound', state: 'completed' });
    expect(view.children[0].remoteTaskId).toBeTruthy();
  });

  it('a v1.0 client through a `relay: {url}` agent reaches an a2a-sdk 0.2.5 peer', async () => {
    const client = await sdkClient(app.url, 'relay025', '1.0');
    const task = asTask(await client.sendMessage(sendParams('chunks 4 every 50ms')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(task)).toBe(chunks(4));
  });

  it('an HTTP+JSON (REST) caller reaches a v0.3 JSON-RPC-only peer (a2a-sdk 0.2.5)', async () => {
    const res = await fetch(`${app.url}/a2a/relay025/message:send`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'chunks 2 every 10ms' }] } }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { task: { status: { state: string }; artifacts: { parts: { text?: string }[] }[] } };
    expect(body.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(body.task.artifacts.flatMap((a) => a.parts).map((p) => p.text).join('')).toBe(chunks(2));
  });

  it('is listed with the served agents (dashboard, /api/status), with no config error', async () => {
    const status = (await (await fetch(`${app.url}/api/status`)).json()) as { ok: boolean; agents: string[] };
    expect(status.agents).toEqual(expect.arrayContaining(['relay13', 'relay025', 'relay-short', 'relay-down']));
    expect(status.ok).toBe(true);
  });

  it('serves a card for both versions, with the configured name', async () => {
    const card = (await (await fetch(`${app.url}/a2a/relay025/.well-known/agent-card.json`)).json()) as { name: string; supportedInterfaces?: unknown[] };
    expect(card.name).toBe('Legacy relay');
    const legacy = (await (await fetch(`${app.url}/a2a/relay025/.well-known/agent.json`)).json()) as { name: string; protocolVersion?: string };
    expect(legacy.name).toBe('Legacy relay');
  });

  it("takes the card facts the config left open from the peer's card", async () => {
    const card = await waitFor(async () => {
      const c = (await (await fetch(`${app.url}/a2a/relay13/.well-known/agent-card.json`)).json()) as { name: string; skills: { id: string }[] };
      return c.name === 'SDK reference peer' && c;
    });
    expect(card.skills.map((s) => s.id)).toEqual(['chunks']);
  });
});

describe('a second Switchboard as the peer', () => {
  it('v0.3 caller, Switchboard peer: input-required round-trips in one peer task', async () => {
    const client = await sdkClient(app.url, 'relay-hub-ask', '0.3');
    const asked = asTask(await client.sendMessage(sendParams('greet me')));
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(partsText(asked.status?.message?.parts)).toContain('What is your name?');
    const answered = asTask(await client.sendMessage(sendParams('Ada', { taskId: asked.id, contextId: asked.contextId })));
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(answered)).toBe('Hello, Ada!');
    const view = await detail(asked.id);
    expect(view.children).toHaveLength(1);
    const peerTask = await readTask(hub.url, view.children[0].remoteTaskId!);
    expect(peerTask.task.state).toBe('completed');
    expect(peerTask.events.filter((e) => e.type === 'message' || e.type === 'submitted')).toHaveLength(2);
  });

  it('a stream from a Switchboard peer arrives whole', async () => {
    const client = await sdkClient(app.url, 'relay-hub-slow', '1.0');
    const events = await collect(client.sendMessageStream(sendParams('work 1s chunks 50 size 40')));
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
    const text = streamedArtifactText(events);
    expect(text.split('\n').filter(Boolean)).toHaveLength(50);
  });
});

describe('the timing contract on the caller\'s leg', () => {
  it('a task longer than W (1 s) and than our client timeout (2 s) is never lost: WORKING at the window, then the peer\'s result', async () => {
    const client = await sdkClient(app.url, 'relay-short', '1.0');
    const first = asTask(await client.sendMessage(sendParams('chunks 3 every 1500ms')));
    expect(first.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    const done = await waitFor(async () => {
      const task = await client.getTask({ tenant: '', id: first.id, historyLength: 0 });
      return task.status?.state === TaskState.TASK_STATE_COMPLETED && task;
    }, 60_000);
    expect(artifactText(done)).toBe(chunks(3));
    const view = await detail(first.id);
    expect(view.events.some((e) => e.type === 'detached')).toBe(true);
  });

  it('300 streamed chunks arrive whole, in order', async () => {
    const client = await sdkClient(app.url, 'relay13', '1.0');
    const events = await collect(client.sendMessageStream(sendParams('chunks 300 every 1ms')));
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(streamedArtifactText(events)).toBe(chunks(300));
  });
});

describe('one conversation across the hop', () => {
  it('input-required at the peer is input-required for the caller; the answer continues the same peer task', async () => {
    await expectInputRoundTrip(await sdkClient(app.url, 'relay13', '1.0'), detail);
  });

  it("a caller's context maps to one peer context: the second task's peer task runs in the first's", async () => {
    const client = await sdkClient(app.url, 'relay13', '1.0');
    const one = asTask(await client.sendMessage(sendParams('chunks 1 every 1ms')));
    const two = asTask(await client.sendMessage(sendParams('chunks 1 every 1ms', { contextId: one.contextId })));
    expect(two.contextId).toBe(one.contextId);
    const [a, b] = await Promise.all([detail(one.id), detail(two.id)]);
    const [childA, childB] = await Promise.all([readTask(app.url, a.children[0].id), readTask(app.url, b.children[0].id)]);
    const peerContext = (v: TaskView) => (v.events.find((e) => e.type === 'remote' && (e.payload as { event?: string }).event === 'task')?.payload as { remoteContextId?: string }).remoteContextId;
    expect(peerContext(childB)).toBe(peerContext(childA));
    // Another context gets another peer context.
    const three = asTask(await client.sendMessage(sendParams('chunks 1 every 1ms')));
    const childC = await readTask(app.url, (await detail(three.id)).children[0].id);
    expect(peerContext(childC)).not.toBe(peerContext(childA));
  });

  it('cancel by the caller cancels at the peer', async () => {
    const client = await sdkClient(app.url, 'relay13', '1.0');
    const started = asTask(await client.sendMessage(sendParams('chunks 100 every 200ms', { returnImmediately: true })));
    await waitFor(async () => artifactText(await client.getTask({ tenant: '', id: started.id, historyLength: 0 })).length > 0);
    const canceled = await client.cancelTask({ tenant: '', id: started.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await waitFor(async () => peer13.requests.some((r) => r.method === 'CancelTask' || r.method === 'tasks/cancel'));
    const child = await waitFor(async () => {
      const view = await detail(started.id);
      return view.children[0]?.state === 'canceled' && view.children[0];
    });
    expect(child.direction).toBe('outbound');
  });
});

describe('the grace bounds the caller\'s leg', () => {
  it('a relay whose grace runs out ends FAILED and its peer task is canceled', async () => {
    const before = peer13.requests.filter((r) => r.method === 'CancelTask' || r.method === 'tasks/cancel').length;
    const client = await sdkClient(app.url, 'relay-grace', '1.0');
    const started = asTask(await client.sendMessage(sendParams('chunks 40 every 250ms')));
    expect(started.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    const ended = await waitFor(async () => {
      const task = await client.getTask({ tenant: '', id: started.id, historyLength: 0 });
      return task.status?.state === TaskState.TASK_STATE_FAILED && task;
    }, 30_000);
    expect(partsText(ended.status?.message?.parts)).toContain('late-result grace exceeded');
    await waitFor(async () => peer13.requests.filter((r) => r.method === 'CancelTask' || r.method === 'tasks/cancel').length > before);
    await waitFor(async () => (await detail(started.id)).children[0]?.state === 'canceled');
  });
});

describe('bad peers stay the peer\'s problem', () => {
  it('a peer that is down gives the caller FAILED with the reason, not a hang or a 500', async () => {
    const client = await sdkClient(app.url, 'relay-down', '1.0');
    const task = asTask(await client.sendMessage(sendParams('hello')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(partsText(task.status?.message?.parts)).toMatch(/relay peer relay\.relay-down: dispatch failed/);
  });
});

describe('restart safety', () => {
  it('kill -9 mid-relay, then restart: the inbound task follows the peer to its real end, with every chunk once', async () => {
    const client = await sdkClient(app.url, 'relay-short', '1.0');
    const started = asTask(await client.sendMessage(sendParams('chunks 8 every 600ms', { returnImmediately: true })));
    await waitFor(async () => artifactText(await client.getTask({ tenant: '', id: started.id, historyLength: 0 })).length > 0, 30_000);
    await app.kill();
    await app.restart();
    const again = await sdkClient(app.url, 'relay-short', '1.0');
    const done = await taskEnded(again, started.id, 60_000);
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(done)).toBe(chunks(8));
  });

  it('a graceful stop (SIGTERM) mid-relay does not fail it: the next start follows it to its end', async () => {
    const client = await sdkClient(app.url, 'relay-short', '1.0');
    const started = asTask(await client.sendMessage(sendParams('chunks 8 every 600ms', { returnImmediately: true })));
    await waitFor(async () => artifactText(await client.getTask({ tenant: '', id: started.id, historyLength: 0 })).length > 0, 30_000);
    await app.stop();
    await app.restart();
    const again = await sdkClient(app.url, 'relay-short', '1.0');
    const done = await taskEnded(again, started.id, 60_000);
    expect(partsText(done.status?.message?.parts)).not.toContain('interrupted');
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(done)).toBe(chunks(8));
  });
});
