/**
 * A relayed stream's chunks are stored once, in the child's log: the caller's log holds a row per
 * run naming them (docs/decisions.md 420). From outside, on both stores (listed in
 * vitest.config.mts): a real @a2a-js/sdk 1.3.0 peer, the built app. The caller gets every chunk
 * through SendStreamingMessage, GetTask, a resubscription from a generation inside a run, the
 * task page's timeline and the export, while its task stores fewer rows than chunks.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactText, asTask, collect, sdkClient, sendParams, sseResults, streamedArtifactText, TaskState, waitFor } from '../support/a2a-clients';
import { startApp, type AppServer } from '../support/app-server';
import { queryAppDb } from '../support/app-db';
import { readTask } from '../support/dispatch-api';
import { sdkChunkText, startSdkPeer, type SdkPeer } from '../support/sdk-peer';

let app: AppServer;
let peer: SdkPeer;

const chunks = (n: number) => Array.from({ length: n }, (_, i) => sdkChunkText(i)).join('');

beforeAll(async () => {
  peer = await startSdkPeer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-chunk-rows-'));
  const config = { peers: [{ name: 'sdk', url: peer.url }], agents: [{ slug: 'relay', relay: { peer: 'sdk' } }] };
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
  app = await startApp({ SWITCHBOARD_CONFIG: path.join(dir, 'config.json') });
});
afterAll(async () => {
  await Promise.all([app?.stop(), peer?.close()]);
});

const storedRows = async (taskId: string) => Number((await queryAppDb<{ n: number | string }>(app, `SELECT count(*) AS "n" FROM "TaskEvent" WHERE "taskId" = '${taskId}'`))[0].n);

type Frame = { kind?: string; artifact?: { parts: { text?: string }[] }; status?: { state: string }; metadata?: { switchboard?: { generation?: number } } };
const generationOf = (f: Frame) => f.metadata?.switchboard?.generation;
const framesText = (frames: Frame[]) => frames.map((f) => (f.kind === 'artifact-update' ? (f.artifact?.parts ?? []).map((p) => p.text ?? '').join('') : '')).join('');

/** A v0.3 resubscription after `after`, read to its end (the task's terminal event). */
async function resubscribe(id: string, after: number): Promise<Frame[]> {
  const res = await fetch(`${app.url}/a2a/relay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/resubscribe', params: { id, metadata: { switchboard: { afterGeneration: after } } } }),
  });
  return sseResults(await res.text()) as Frame[];
}

describe('a relayed stream stored once', () => {
  it('2,000 chunks arrive whole through SendStreamingMessage, GetTask and the export; the caller stores fewer rows than chunks', async () => {
    const client = await sdkClient(app.url, 'relay', '1.0');
    const events = await collect(client.sendMessageStream(sendParams('chunks 2000 every 0ms')));
    expect(streamedArtifactText(events)).toBe(chunks(2000));
    const first = events.find((e) => e.payload?.$case === 'task')?.payload?.value as { id: string } | undefined;
    const id = first!.id;
    const task = asTask(await client.getTask({ tenant: '', id, historyLength: 0 }));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(task)).toBe(chunks(2000));

    // The task page's timeline (chunks compacted): one entry per seq, none missing.
    const view = await readTask(app.url, id);
    expect(view.events.map((e) => e.seq)).toEqual(view.events.map((_, i) => i + 1));
    expect(view.events.filter((e) => e.type === 'artifact')).toHaveLength(2000);

    const exported = (await (await fetch(`${app.url}/api/tasks/export`)).text()).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { task: { id: string }; events: { type: string; payload: { artifact?: { parts: { text?: string }[] } } }[] });
    const line = exported.find((l) => l.task.id === id)!;
    expect(line.events.flatMap((e) => e.payload.artifact?.parts ?? []).map((p) => p.text ?? '').join('')).toBe(chunks(2000));

    const rows = await storedRows(id);
    // A row per run of the chunks one commit of the child brought: on main, a row per chunk and
    // the statuses besides. Runs are long when the hub is busy (the bench), short when it is not.
    expect(rows, `${rows} rows for 2,000 relayed chunks`).toBeLessThan(2000);
  });

  it('a resubscription from a generation inside a run gets every later chunk once, in order', async () => {
    const client = await sdkClient(app.url, 'relay', '1.0');
    const started = asTask(await client.sendMessage(sendParams('chunks 300 every 0ms', { returnImmediately: true })));
    // A stored row that names a run of two chunks or more, while the task runs: resumed from
    // inside it (after its run's first chunk), the reader must start within the run.
    const runRow = async () => {
      const rows = await queryAppDb<{ seq: number; payload: string }>(app, `SELECT "seq","payload" FROM "TaskEvent" WHERE "taskId" = '${started.id}' AND "type" = 'artifact-ref'`);
      return rows.find((r) => (JSON.parse(r.payload) as { count: number }).count >= 2);
    };
    const run = await waitFor(runRow, 30_000, 20);
    const middle = run.seq - 1;
    const [whole, rest] = await Promise.all([resubscribe(started.id, 0), resubscribe(started.id, middle)]);
    expect(framesText(whole)).toBe(chunks(300));
    // Each subscription of the detached task logs a `reattached` event, not streamed: compared
    // with the whole subscription's frames after `middle`, not with consecutive numbers.
    const chunkGenerations = (frames: Frame[]) => frames.filter((f) => f.kind === 'artifact-update').map(generationOf);
    const later = whole.filter((f) => (generationOf(f) ?? 0) > middle);
    expect(chunkGenerations(rest)).toEqual(chunkGenerations(later));
    expect(framesText(rest)).toBe(framesText(later));
  });
});
