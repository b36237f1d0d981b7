/**
 * Scenario 8 — what a relay agent costs (docs/relay.md): the same requests to
 * the @a2a-js/sdk reference server (bench/ref-sdk) directly, and through a Switchboard relay
 * agent in front of it, interleaved so a slow moment of the machine hurts both sides alike.
 *
 * - blocking echo, one request at a time: latency p50 / p99 direct and relayed, and the
 *   difference (what the relay adds);
 * - a 2,000-chunk stream (SendStreamingMessage): chunks/s direct and relayed, each stream's
 *   accumulated artifact checked whole, and the relaying hub's CPU per relayed chunk (its own
 *   process over its own streams: like the CPU per echo, a figure other load inflates little).
 *
 * The peer is the SDK reference server, or a second Switchboard (`peer: 'switchboard'`). A
 * `baseline` checkout (its own build) adds a second relaying hub measured in the same rounds: a
 * change's before and after, side by side. Other processes' CPU during the measurement is shown.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { A2A_HEADERS, expectedArtifact, sendBody, streamBody } from '../lib/a2a';
import { fmt, type BenchContext, type ScenarioResult } from '../lib/context';
import { foreignCores, markLoad } from '../lib/machine-load';
import { readSse } from '../lib/sse-client';
import { countsBetween, queryCounts, type QueryCounts } from '../lib/query-counts';
import type { RunningServer } from '../lib/servers';
import { median, percentile, round } from '../lib/stats';

const CHUNKS = 2_000;
const SIZE = 32;

export interface RelayOptions {
  peer: 'ref-sdk' | 'switchboard';
  sends: number;
  streams: number;
  /** Another checkout (its own build in the same dist dir name) relaying too: the "before". */
  baseline?: string;
  /** Count each hub's database work per relayed and per served echo (SWITCHBOARD_QUERY_LOG=1 on the hubs). */
  queries?: boolean;
}

async function timedSend(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers: A2A_HEADERS, body: sendBody('hello relay', randomUUID()) });
  const body = (await res.json()) as { result?: { task?: { status?: { state?: string } }; status?: { state?: string } } };
  const state = body.result?.task?.status?.state ?? body.result?.status?.state;
  if (!/COMPLETED|completed/.test(String(state))) throw new Error(`${url}: expected a completed task, got ${JSON.stringify(body).slice(0, 300)}`);
  return performance.now() - started;
}

/** Chunks/s of one 2,000-chunk stream; throws unless the artifact arrived whole. */
async function timedStream(url: string): Promise<number> {
  let text = '';
  let chunks = 0;
  const started = performance.now();
  await readSse({
    url,
    method: 'POST',
    headers: { ...A2A_HEADERS, accept: 'text/event-stream' },
    body: streamBody(`work 0s chunks ${CHUNKS} size ${SIZE}`, randomUUID()),
    onFrame: (frame) => {
      const result = (JSON.parse(frame.data) as { result?: { artifactUpdate?: { artifact?: { parts?: { text?: string }[] } } } }).result;
      const parts = result?.artifactUpdate?.artifact?.parts;
      if (parts) {
        chunks++;
        text += parts.map((p) => p.text ?? '').join('');
      }
    },
  });
  const seconds = (performance.now() - started) / 1000;
  if (text !== expectedArtifact(CHUNKS, SIZE)) throw new Error(`${url}: the streamed artifact is not whole (${chunks} chunks, ${text.length} chars)`);
  return chunks / seconds;
}

const summary = (ms: number[]) => ({ p50: round(percentile(ms, 50), 1), p99: round(percentile(ms, 99), 1) });

interface Side {
  name: string;
  echo: string;
  slow: string;
  server?: RunningServer;
  /** A hub's own built-in echo: what serving (not relaying) an echo costs the same process. */
  served?: string;
}

async function startHub(ctx: BenchContext, peer: RunningServer, cwd?: string, queries = false): Promise<RunningServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-bench-'));
  const config = {
    peers: [{ name: 'ref', url: `${peer.url}/a2a/echo` }, { name: 'ref-slow', url: `${peer.url}/a2a/slow` }],
    agents: [
      { slug: 'relay-echo', name: 'Relayed echo', relay: { peer: 'ref' }, responseWindowSeconds: 60 },
      { slug: 'relay-slow', name: 'Relayed chunks', relay: { peer: 'ref-slow' }, responseWindowSeconds: 60 },
    ],
  };
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
  const env = { SWITCHBOARD_CONFIG: path.join(dir, 'config.json'), ...(queries ? { SWITCHBOARD_QUERY_LOG: '1' } : {}) };
  return ctx.start('switchboard', { env, ...(cwd ? { cwd } : {}) });
}

type Hub = Side & { server: RunningServer; served: string };

/**
 * `sends` echoes to each hub at `url(hub)`, interleaved one at a time: each hub's CPU ms per
 * echo (its own process: other load inflates it little), and its database work per echo when
 * counted.
 */
async function perEcho(hubs: Hub[], sends: number, url: (hub: Hub) => string, queries: boolean, ms?: Map<string, number[]>) {
  const cpuStart = hubs.map((h) => h.server.cpuSeconds());
  const countsStart = queries ? await Promise.all(hubs.map((h) => queryCounts(h.server.url))) : [];
  for (let i = 0; i < sends; i++) {
    for (const h of hubs) {
      const took = await timedSend(url(h));
      ms?.get(h.name)?.push(took);
    }
  }
  const cpu = new Map(hubs.map((h, i) => [h.name, round(((h.server.cpuSeconds() - cpuStart[i]) * 1000) / sends, 2)]));
  const counts = new Map<string, QueryCounts>();
  if (queries) for (const [i, h] of hubs.entries()) counts.set(h.name, countsBetween(countsStart[i], await queryCounts(h.server.url), sends));
  return { cpu, counts };
}

/** Everything measured, per side (direct, relayed, and the baseline's relayed when given). */
export async function measureRelay(ctx: BenchContext, opts: RelayOptions) {
  const peer = await ctx.start(opts.peer);
  const sides: Side[] = [{ name: 'direct', echo: `${peer.url}/a2a/echo`, slow: `${peer.url}/a2a/slow` }];
  try {
    // Phases in seconds since the first hub was started: windows for bench/profile-summary.ts --from/--to.
    const hubsStarted = performance.now();
    const phase = (what: string, from: number) => ctx.log(`relay: ${what} ${((from - hubsStarted) / 1000).toFixed(1)}–${((performance.now() - hubsStarted) / 1000).toFixed(1)} s after the hubs' start`);
    for (const [name, cwd] of [['relayed', undefined], ...(opts.baseline ? [['baseline', path.resolve(opts.baseline)]] : [])] as const) {
      const server = await startHub(ctx, peer, cwd, opts.queries);
      sides.push({ name, echo: `${server.url}/a2a/relay-echo`, slow: `${server.url}/a2a/relay-slow`, server, served: `${server.url}/a2a/echo` });
    }
    ctx.log(`relay: peer ${opts.peer} ${peer.url}; ${sides.slice(1).map((s) => `${s.name} ${s.server!.url}`).join(', ')}`);
    const mark = markLoad(0);
    const loadavgBefore = os.loadavg()[0];
    const cpu = () => [peer, ...sides.flatMap((s) => (s.server ? [s.server] : []))].reduce((sum, s) => sum + s.cpuSeconds(), 0);
    const cpuStart = cpu();
    for (let i = 0; i < 30; i++) await Promise.all(sides.map((s) => timedSend(s.echo))); // warm-up
    const ms = new Map(sides.map((s) => [s.name, [] as number[]]));
    // A hub's CPU per relayed send: it works only for its own side's sends, so other load cannot
    // inflate it (the peer serves every side, so it has no such figure).
    const hubs = sides.filter((s): s is Hub => s.server !== undefined);
    const relayedCounts = opts.queries ? await Promise.all(hubs.map((h) => queryCounts(h.server.url))) : [];
    const echoCpuStart = hubs.map((s) => s.server.cpuSeconds());
    const relayedFrom = performance.now();
    for (let i = 0; i < opts.sends; i++) for (const s of sides) ms.get(s.name)!.push(await timedSend(s.echo));
    phase('relayed echoes', relayedFrom);
    const cpuMsPerSend = new Map(hubs.map((s, i) => [s.name, round(((s.server.cpuSeconds() - echoCpuStart[i]) * 1000) / opts.sends, 2)]));
    const queriesPerSend = new Map<string, QueryCounts>();
    if (opts.queries) for (const [i, h] of hubs.entries()) queriesPerSend.set(h.name, countsBetween(relayedCounts[i], await queryCounts(h.server.url), opts.sends));
    // The same hubs serving their own echo (one process, same moments of load): the relay's cost beside it.
    const servedMs = new Map(hubs.map((h) => [h.name, [] as number[]]));
    for (const h of hubs) for (let i = 0; i < 30; i++) await timedSend(h.served); // warm-up
    const servedFrom = performance.now();
    const served = await perEcho(hubs, opts.sends, (h) => h.served, opts.queries === true, servedMs);
    phase('served echoes', servedFrom);
    if (opts.streams > 0) for (const s of sides.slice(1)) await timedStream(s.slow); // warm-up (none with --streams 0: an echo-only profile)
    const rate = new Map(sides.map((s) => [s.name, [] as number[]]));
    // A hub's CPU per relayed chunk, over its own streams only (as the CPU per echo above).
    const streamCpu = new Map(hubs.map((s) => [s.name, 0]));
    const streamCountsStart = opts.queries && opts.streams > 0 ? await Promise.all(hubs.map((h) => queryCounts(h.server.url))) : [];
    for (let i = 0; i < opts.streams; i++) {
      for (const s of sides) {
        const before = s.server?.cpuSeconds() ?? 0;
        rate.get(s.name)!.push(await timedStream(s.slow));
        if (s.server) streamCpu.set(s.name, streamCpu.get(s.name)! + s.server.cpuSeconds() - before);
      }
    }
    // Per relayed stream (with --queries): how many commits and writes its chunks took on each hub.
    const queriesPerStream = new Map<string, QueryCounts>();
    for (const [i, start] of streamCountsStart.entries()) queriesPerStream.set(hubs[i].name, countsBetween(start, await queryCounts(hubs[i].server.url), opts.streams));
    const cpuUsPerChunk = new Map([...streamCpu].map(([name, seconds]) => [name, opts.streams > 0 ? round((seconds * 1e6) / (opts.streams * CHUNKS)) : null]));
    const otherCores = round(foreignCores(mark, cpu() - cpuStart), 2);
    const load = { otherCores, loadavg1mStart: round(loadavgBefore, 2), loadavg1mEnd: round(os.loadavg()[0], 2), cores: os.cpus().length };
    return { sides: sides.map((s) => s.name), ms, cpuMsPerSend, queriesPerSend, queriesPerStream, servedMs, served, cpuUsPerChunk, rate, load };
  } finally {
    await Promise.all(sides.map((s) => s.server?.stop()));
    await peer.stop();
  }
}

export type RelayFigures = Awaited<ReturnType<typeof measureRelay>>;

/** The report's figures: added latency and the stream ratio, per relaying hub. */
export function relayReport(figures: RelayFigures, opts: RelayOptions) {
  const direct = summary(figures.ms.get('direct')!);
  const directRate = median(figures.rate.get('direct')!);
  const hubs = figures.sides.slice(1).map((name) => {
    const relayed = summary(figures.ms.get(name)!);
    const rate = median(figures.rate.get(name)!);
    return {
      name,
      relayedMs: relayed,
      /** The relaying hub's CPU per relayed echo (the peer's is the direct figure). */
      hubCpuMsPerSend: figures.cpuMsPerSend.get(name)!,
      /** The same hub serving its own echo agent: latency and CPU per echo. */
      servedMs: summary(figures.servedMs.get(name)!),
      servedCpuMsPerSend: figures.served.cpu.get(name)!,
      /** Database work per relayed and per served echo (with --queries). */
      ...(figures.queriesPerSend.size ? { queriesPerRelayedEcho: figures.queriesPerSend.get(name), queriesPerServedEcho: figures.served.counts.get(name) } : {}),
      ...(figures.queriesPerStream.size ? { queriesPerRelayedStream: figures.queriesPerStream.get(name) } : {}),
      /** The relaying hub's CPU per relayed chunk of its streams (µs). */
      hubCpuUsPerChunk: figures.cpuUsPerChunk.get(name) ?? null,
      addedMs: { p50: round(relayed.p50 - direct.p50, 1), p99: round(relayed.p99 - direct.p99, 1) },
      chunksPerSecond: round(rate),
      streamRatio: round(rate / directRate, 2),
      streamRuns: figures.rate.get(name)!.map((x) => round(x)),
    };
  });
  return { peer: opts.peer, sends: opts.sends, streams: opts.streams, load: figures.load, direct: { ms: direct, chunksPerSecond: round(directRate), streamRuns: figures.rate.get('direct')!.map((x) => round(x)) }, hubs };
}

const PEER_LABEL = { 'ref-sdk': '@a2a-js/sdk reference server', switchboard: 'a second Switchboard' } as const;

/**
 * Both peers the issue names: the SDK reference server (cheap, in memory: the relay's added
 * latency stands out) and a second Switchboard (a fast durable stream: the relay's per-chunk cost
 * stands out). Targets: the added p50 against the SDK server, the stream ratio against both.
 */
export async function relayScenario(ctx: BenchContext, baseline?: string): Promise<ScenarioResult> {
  const reports = [];
  for (const peer of ['ref-sdk', 'switchboard'] as const) {
    const opts: RelayOptions = { peer, sends: ctx.quick ? 30 : 300, streams: ctx.quick ? 1 : 3, ...(baseline ? { baseline } : {}) };
    reports.push(relayReport(await measureRelay(ctx, opts), opts));
  }
  const added = reports[0].hubs[0].addedMs.p50;
  const ratio = Math.min(...reports.map((r) => r.hubs[0].streamRatio));
  const rows = reports.flatMap((r) => [
    [`${PEER_LABEL[r.peer]}, direct`, fmt(r.direct.ms.p50, 1), fmt(r.direct.ms.p99, 1), '—', '—', '—', '—', fmt(r.direct.chunksPerSecond), '1.00×'],
    ...r.hubs.map((h) => [
      `… through ${h.name === 'relayed' ? 'this build' : 'the baseline'}'s relay`,
      fmt(h.relayedMs.p50, 1),
      fmt(h.relayedMs.p99, 1),
      fmt(h.addedMs.p50, 1),
      fmt(h.addedMs.p99, 1),
      fmt(h.hubCpuMsPerSend, 2),
      h.hubCpuUsPerChunk === null ? '—' : fmt(h.hubCpuUsPerChunk),
      fmt(h.chunksPerSecond),
      `${fmt(h.streamRatio, 2)}×`,
    ]),
  ]);
  return {
    id: 'relay',
    title: '8. Relay agent vs calling the peer directly',
    params: { sends: reports[0].sends, streams: reports[0].streams, chunks: CHUNKS, size: SIZE, ...(baseline ? { baseline } : {}) },
    data: { reports },
    table: [['path', 'blocking echo p50 ms', 'p99 ms', 'added p50 ms', 'added p99 ms', "relaying hub's CPU ms per echo", 'its CPU µs per relayed chunk', `${fmt(CHUNKS)}-chunk stream chunks/s`, 'vs direct'], ...rows],
    targets: [
      // "Milliseconds, not a multiple": the relayed echo within a small constant of the direct one.
      { name: 'relay adds ≤ 10 ms p50 to a blocking echo (SDK peer)', value: `+${fmt(added, 1)} ms`, met: added <= 10 },
      { name: 'relayed 2,000-chunk stream ≥ 0.5× direct (both peers)', value: `${fmt(ratio, 2)}×`, met: ratio >= 0.5 },
    ],
    notes: [
      ...reports.map((r) => `Peer ${PEER_LABEL[r.peer]}: other processes used ${fmt(r.load.otherCores, 2)} of ${r.load.cores} cores during the measurement; 1-min load average ${r.load.loadavg1mStart} → ${r.load.loadavg1mEnd}.`),
      `One request at a time, ${reports[0].sends} sends and ${reports[0].streams} streams per path, interleaved; ${fmt(CHUNKS)} chunks of ${SIZE} characters. The CPU column is the relaying hub's own (the peer serves every path).`,
    ],
  };
}
