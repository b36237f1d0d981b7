/**
 * A relay in flight when its instance dies is taken over by a survivor (docs/relay.md,
 * "Restarts"): two `next start` instances on one PostgreSQL, the same relay agent on both, a
 * real @a2a-js/sdk 1.3.0 peer. After `kill -9` of A mid-relay, B resumes the relay turn once the
 * lease expired and the caller's task gets the peer's real end, every chunk once, from the one
 * peer task A started (never a second send).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { artifactText, asTask, sdkClient, sendParams, TaskState, waitFor } from '../support/a2a-clients';
import { freshPgDatabase } from '../support/postgres';
import { readTask } from '../support/dispatch-api';
import { taskEnded } from '../support/relay-checks';
import { sdkChunkText, startSdkPeer, type SdkPeer } from '../support/sdk-peer';

let apps: AppServer[] = [];
let peer: SdkPeer | undefined;
afterEach(async () => {
  await Promise.all(apps.map((a) => a.kill()));
  await peer?.close();
  apps = [];
});

const chunks = (n: number) => Array.from({ length: n }, (_, i) => sdkChunkText(i)).join('');
const isSend = (method: string | undefined) => Boolean(method && /send|stream/i.test(method));

it('after kill -9 of the instance running a relay, the survivor follows the same peer task to its end', async () => {
  peer = await startSdkPeer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-takeover-'));
  const config = path.join(dir, 'config.json');
  // W = 1 s: the caller gets its answer (WORKING) long before the peer ends.
  fs.writeFileSync(config, JSON.stringify({ agents: [{ slug: 'relay', relay: { url: peer.url }, responseWindowSeconds: 1, lateResultGraceSeconds: 120 }] }));
  const DATABASE_URL = await freshPgDatabase();
  const env = { DATABASE_URL, SWITCHBOARD_CONFIG: config, SWITCHBOARD_LEASE: '1' };
  const a = await startApp({ ...env, SWITCHBOARD_INSTANCE_ID: 'a' });
  const b = await startApp({ ...env, SWITCHBOARD_INSTANCE_ID: 'b' });
  apps.push(a, b);

  const onA = await sdkClient(a.url, 'relay', '1.0');
  const started = asTask(await onA.sendMessage(sendParams('chunks 10 every 500ms', { returnImmediately: true })));
  await waitFor(async () => artifactText(await onA.getTask({ tenant: '', id: started.id, historyLength: 0 })).length > 0, 30_000);
  const sendsBefore = peer.requests.filter((r) => isSend(r.method)).length;
  await a.kill();

  const onB = await sdkClient(b.url, 'relay', '1.0');
  const done = await taskEnded(onB, started.id, 60_000);
  expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  expect(artifactText(done)).toBe(chunks(10));

  // The survivor followed A's peer task; it never sent the caller's message again.
  expect(peer.requests.filter((r) => isSend(r.method)).length).toBe(sendsBefore);
  const detail = (await readTask(b.url, started.id)) as Awaited<ReturnType<typeof readTask>> & { children: { state: string; remoteTaskId: string | null }[] };
  expect(detail.children).toHaveLength(1);
  expect(detail.children[0]).toMatchObject({ state: 'completed' });
  const health = await (await fetch(`${b.url}/api/health`)).json();
  expect(health.leases.takenOver).toBeGreaterThanOrEqual(1);
});
