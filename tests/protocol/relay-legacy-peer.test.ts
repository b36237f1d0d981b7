/**
 * A relay with the third peer version: a relay agent in front of an @a2a-js/sdk 0.3.14 server
 * (A2A v0.3 JSON-RPC only, no tasks/list), called by v0.3 and v1.0 clients. Times are scaled by
 * configuration: W = 1 s, our client timeout to the peer 2 s, the caller's own timeout 6 s.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactText, asTask, collect, lastState, sdkClient, sendParams, streamedArtifactText, TaskState, waitFor, type SdkVersion } from '../support/a2a-clients';
import { startApp, type AppServer } from '../support/app-server';
import { readTask, type TaskView } from '../support/dispatch-api';
import { sdkChunkText, type SdkPeer } from '../support/sdk-peer';
import { startLegacySdkPeer } from '../support/legacy-sdk-peer';
import { expectInputRoundTrip, taskEnded } from '../support/relay-checks';

let app: AppServer;
let peer: SdkPeer;

/** What the caller gives the hub before it gives up (a Hermes with a short HTTP timeout, scaled). */
const CALLER_TIMEOUT_MS = 6_000;

const chunks = (n: number) => Array.from({ length: n }, (_, i) => sdkChunkText(i)).join('');
const cancels = () => peer.requests.filter((r) => r.method === 'tasks/cancel').length;

beforeAll(async () => {
  peer = await startLegacySdkPeer('0.3.14');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-0314-'));
  const config = {
    peers: [{ name: 'sdk0314', url: peer.url }],
    agents: [
      { slug: 'relay0314', relay: { peer: 'sdk0314' }, responseWindowSeconds: 30 },
      { slug: 'relay0314-short', relay: { peer: 'sdk0314' }, responseWindowSeconds: 1, lateResultGraceSeconds: 120 },
    ],
  };
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
  app = await startApp({ SWITCHBOARD_CONFIG: path.join(dir, 'config.json'), SWITCHBOARD_CLIENT_TIMEOUT: '2' });
});
afterAll(async () => {
  await Promise.all([app?.stop(), peer?.close()]);
});

interface Detail extends TaskView {
  children: { id: string; direction: string; state: string; remoteTaskId: string | null }[];
}
const detail = (taskId: string) => readTask(app.url, taskId) as Promise<Detail>;

/** The call must answer within the caller's timeout, or the caller would have given up. */
async function withinCallerTimeout<T>(call: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`the caller gave up after ${CALLER_TIMEOUT_MS} ms`)), CALLER_TIMEOUT_MS)));
  try {
    return await Promise.race([call, giveUp]);
  } finally {
    clearTimeout(timer);
  }
}

describe.each<SdkVersion>(['0.3', '1.0'])('a v%s client, a relay in front of an a2a-js 0.3.14 peer', (version) => {
  it("a task longer than the caller's timeout, W and our client timeout is never lost: WORKING in time, then the peer's result", async () => {
    const client = await sdkClient(app.url, 'relay0314-short', version);
    // 3 chunks 3 s apart: 9 s at the peer, against W 1 s, T 2 s and the caller's 6 s.
    const first = asTask(await withinCallerTimeout(client.sendMessage(sendParams('chunks 3 every 3000ms'))));
    expect(first.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    const done = await taskEnded(client, first.id, 60_000);
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(done)).toBe(chunks(3));
    const view = await detail(first.id);
    expect(view.events.some((e) => e.type === 'detached')).toBe(true);
    expect(view.children).toHaveLength(1);
    expect(view.children[0]).toMatchObject({ direction: 'outbound', state: 'completed' });
  });

  it('300 streamed chunks arrive whole, in order', async () => {
    const client = await sdkClient(app.url, 'relay0314', version);
    const events = await collect(client.sendMessageStream(sendParams('chunks 300 every 1ms')));
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(streamedArtifactText(events)).toBe(chunks(300));
  });

  it('cancel by the caller cancels at the peer', async () => {
    const before = cancels();
    const client = await sdkClient(app.url, 'relay0314', version);
    const started = asTask(await client.sendMessage(sendParams('chunks 100 every 200ms', { returnImmediately: true })));
    await waitFor(async () => artifactText(await client.getTask({ tenant: '', id: started.id, historyLength: 0 })).length > 0);
    const canceled = await client.cancelTask({ tenant: '', id: started.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await waitFor(async () => cancels() > before);
    await waitFor(async () => (await detail(started.id)).children[0]?.state === 'canceled');
  });

  it('input-required at the peer round-trips in one peer task', async () => {
    await expectInputRoundTrip(await sdkClient(app.url, 'relay0314', version), detail);
  });
});
