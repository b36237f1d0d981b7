/**
 * Scenario 3 — streaming. SendStreamingMessage to the chunking agent ("work 0s chunks N size
 * 500"): the time from the request to the final event, the artifact chunks per second, and a
 * check that the accumulated artifact arrived whole. Switchboard persists every chunk; after
 * each stream GetTask must return the whole artifact and the event log must hold every chunk.
 * 200 vs 2,000 chunks shows whether a server stays linear.
 */
import { randomUUID } from 'node:crypto';
import { A2A_HEADERS, expectedArtifact, getTaskBody, postJson, streamBody } from '../lib/a2a';
import { fmt, type BenchContext, type ScenarioResult } from '../lib/context';
import { SERVER_KINDS, type RunningServer, type ServerKind } from '../lib/servers';
import { readSse } from '../lib/sse-client';
import { countRows } from '../lib/sqlite-probe';
import { round, spread, type Spread } from '../lib/stats';
import { foreignCores, markLoad } from '../lib/machine-load';

const SIZE = 500;
const STREAMS_PER_RUN = 3;

interface StreamRun {
  ms: number;
  chunks: number;
  frames: number;
  whole: boolean;
  completed: boolean;
  taskId?: string;
}

type Artifacts = Map<string, string>;

interface V10Part {
  text?: string;
}
interface V10Artifact {
  artifactId: string;
  parts: V10Part[];
}

const textOf = (a: V10Artifact) => a.parts.map((p) => p.text ?? '').join('');

/** Applies one v1.0 stream result the way a client must: append:true chunks concatenate. */
function apply(result: Record<string, unknown>, artifacts: Artifacts, run: StreamRun): void {
  if (result.task) {
    const task = result.task as { id: string; artifacts?: V10Artifact[] };
    run.taskId = task.id;
    for (const a of task.artifacts ?? []) artifacts.set(a.artifactId, textOf(a));
  } else if (result.artifactUpdate) {
    const u = result.artifactUpdate as { artifact: V10Artifact; append?: boolean };
    run.chunks++;
    const text = textOf(u.artifact);
    artifacts.set(u.artifact.artifactId, u.append ? (artifacts.get(u.artifact.artifactId) ?? '') + text : text);
  } else if (result.statusUpdate) {
    const u = result.statusUpdate as { status: { state: string } };
    if (u.status.state === 'TASK_STATE_COMPLETED') run.completed = true;
  }
}

/** One stream, checked the way a client must read it (also bench/cpu-cost.ts). */
export async function streamOnce(server: RunningServer, chunks: number, expected: string): Promise<StreamRun> {
  const run: StreamRun = { ms: 0, chunks: 0, frames: 0, whole: false, completed: false };
  const artifacts: Artifacts = new Map();
  const started = performance.now();
  const outcome = await readSse({
    url: `${server.url}/a2a/slow`,
    method: 'POST',
    headers: A2A_HEADERS,
    body: streamBody(`work 0s chunks ${chunks} size ${SIZE}`, randomUUID()),
    onFrame: (frame) => {
      const msg = JSON.parse(frame.data) as { result?: Record<string, unknown>; error?: unknown };
      if (msg.error) throw new Error(`${server.kind}: stream error ${JSON.stringify(msg.error)}`);
      apply(msg.result!, artifacts, run);
    },
  });
  run.ms = performance.now() - started;
  run.frames = outcome.frames;
  run.whole = artifacts.get('result') === expected;
  if (outcome.status !== 200 || outcome.end !== 'closed') throw new Error(`${server.kind}: stream ended ${outcome.end} (${outcome.status}) ${outcome.error ?? ''}`);
  return run;
}

/** Switchboard only: the stored task holds the whole artifact and every chunk is in the log. */
async function persistedWhole(server: RunningServer, taskId: string, chunks: number, expected: string): Promise<boolean> {
  const reply = await postJson(`${server.url}/a2a/slow`, getTaskBody(taskId));
  const task = reply.result as { artifacts?: V10Artifact[]; status: { state: string } };
  const stored = (task.artifacts ?? []).find((a) => a.artifactId === 'result');
  const events = countRows(server.dbFile!, 'SELECT COUNT(*) AS n FROM "TaskEvent" WHERE "taskId" = ? AND "type" = \'artifact\'', taskId);
  return task.status.state === 'TASK_STATE_COMPLETED' && !!stored && textOf(stored) === expected && events === chunks;
}

export async function streamScenario(ctx: BenchContext, servers: Record<ServerKind, RunningServer>): Promise<ScenarioResult> {
  const sizes = [200, 2000];
  const streams = ctx.quick ? 1 : STREAMS_PER_RUN;
  const rates: Record<string, number[]> = {};
  const checks = { whole: 0, total: 0, persisted: 0, persistedChecked: 0 };
  const foreign: number[] = [];
  const key = (kind: ServerKind, chunks: number) => `${kind}/${chunks}`;

  for (const kind of SERVER_KINDS) await streamOnce(servers[kind], 200, expectedArtifact(200, SIZE)); // warm-up
  for (let run = 0; run < ctx.runs; run++) {
    for (const chunks of sizes) {
      const expected = expectedArtifact(chunks, SIZE);
      for (const kind of SERVER_KINDS) {
        let ms = 0;
        let count = 0;
        const mark = markLoad(servers[kind].cpuSeconds());
        for (let i = 0; i < streams; i++) {
          const r = await streamOnce(servers[kind], chunks, expected);
          ms += r.ms;
          count += r.chunks;
          checks.total++;
          if (r.whole && r.completed && r.chunks === chunks) checks.whole++;
          if (kind === 'switchboard') {
            checks.persistedChecked++;
            if (await persistedWhole(servers[kind], r.taskId!, chunks, expected)) checks.persisted++;
          }
        }
        const rate = round((count / ms) * 1000);
        foreign.push(round(foreignCores(mark, servers[kind].cpuSeconds()), 2));
        (rates[key(kind, chunks)] ??= []).push(rate);
        ctx.log(`stream run ${run + 1}/${ctx.runs} ${kind} ${chunks} chunks: ${fmt(rate)} chunks/s (${fmt(ms / streams, 1)} ms per stream)`);
      }
    }
  }

  const s = Object.fromEntries(Object.entries(rates).map(([k, v]) => [k, spread(v)])) as Record<string, Spread>;
  const sameRunRatio = (other: ServerKind, chunks: number) =>
    spread(rates[key('switchboard', chunks)].map((r, i) => round(r / rates[key(other, chunks)][i], 2)));
  const toFloor = sameRunRatio('next-floor', 2000);
  const toRef = sameRunRatio('ref-sdk', 2000);
  const linearity = (kind: ServerKind) => round(s[key(kind, 2000)].median / s[key(kind, 200)].median, 2);
  const range = (x: Spread) => `${fmt(x.median)} (${fmt(x.min)}–${fmt(x.max)})`;
  const msPerStream = (kind: ServerKind, chunks: number) => fmt((chunks / s[key(kind, chunks)].median) * 1000, 1);

  return {
    id: 'stream',
    title: '3. Streaming (SendStreamingMessage, append:true chunks of 500 B)',
    params: { chunkSizes: sizes, chunkBytes: SIZE, streamsPerRun: streams, runs: ctx.runs },
    data: { foreignCores: foreign, chunksPerSec: s, ratioToFloor2000: toFloor, ratioToRef2000: toRef, linearity: Object.fromEntries(SERVER_KINDS.map((k) => [k, linearity(k)])), checks },
    table: [
      ['server', 'chunks/s @200', 'chunks/s @2,000', 'ms per 2,000-chunk stream', '2,000 vs 200', 'vs ref-sdk @2,000', 'vs next-floor @2,000'],
      ...SERVER_KINDS.map((k) => [
        k,
        range(s[key(k, 200)]),
        range(s[key(k, 2000)]),
        msPerStream(k, 2000),
        `${fmt(linearity(k), 2)}×`,
        k === 'switchboard' ? `${fmt(toRef.median, 2)}× (${fmt(toRef.min, 2)}–${fmt(toRef.max, 2)})` : `${fmt(s[key(k, 2000)].median / s[key('ref-sdk', 2000)].median, 2)}×`,
        k === 'switchboard' ? `${fmt(toFloor.median, 2)}× (${fmt(toFloor.min, 2)}–${fmt(toFloor.max, 2)})` : `${fmt(s[key(k, 2000)].median / s[key('next-floor', 2000)].median, 2)}×`,
      ]),
    ],
    targets: [
      { name: 'Switchboard ≥ 0.5× next-floor at 2,000 chunks (same run)', value: `${fmt(toFloor.median, 2)}×`, met: toFloor.median >= 0.5 },
      { name: 'every stream arrived whole and completed', value: `${checks.whole}/${checks.total}`, met: checks.whole === checks.total },
      { name: 'every Switchboard chunk persisted (GetTask whole + one event row per chunk)', value: `${checks.persisted}/${checks.persistedChecked}`, met: checks.persisted === checks.persistedChecked },
      { name: 'Switchboard linear: chunks/s at 2,000 ≥ 0.8× at 200', value: `${fmt(linearity('switchboard'), 2)}×`, met: linearity('switchboard') >= 0.8 },
    ],
    notes: [
      'chunks/s = artifact chunks received ÷ time from the request to the end of the stream (one client, streams one after another).',
      `Other processes on the machine during the measured streams: up to ${fmt(Math.max(...foreign), 2)} cores (median ${fmt(spread(foreign).median, 2)}).`,
    ],
  };
}
