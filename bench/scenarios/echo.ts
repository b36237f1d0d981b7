/**
 * Scenario 1 — echo throughput. Blocking SendMessage to the echo agent with 50 connections,
 * each server in turn (A, B, C, A, B, C…) after a warm-up; then latency at 300 requests/s,
 * sent steadily (one every 3.3 ms, open loop, latency from when each was due: the target's
 * figure) and, for comparison with earlier rounds, as autocannon's `overallRate` sends it (each
 * of 10 connections sends its 30 of the second back to back, then waits: a burst of 300 at 10
 * at a time every second, decision 419). Switchboard persists every task and event; the
 * database is counted afterwards against the good responses it gave.
 */
import { A2A_HEADERS, sendBody } from '../lib/a2a';
import { fmt, type BenchContext, type ScenarioResult } from '../lib/context';
import { runLoad, type LoadResult } from '../lib/load';
import { pacedLoad } from '../lib/paced-load';
import { SERVER_KINDS, type RunningServer, type ServerKind } from '../lib/servers';
import { persistedCounts } from '../lib/sqlite-probe';
import { round, spread, type Spread } from '../lib/stats';
import { foreignCores, markLoad } from '../lib/machine-load';

const CONNECTIONS = 50;
const FIXED_RATE = 300;
const EXPECT = 'TASK_STATE_COMPLETED';

type Servers = Record<ServerKind, RunningServer>;

/** One steady (paced, open-loop) run at the fixed rate. */
interface SteadyRun {
  p50: number;
  p99: number;
  max: number;
  good: number;
  bad: number;
  skipped: number;
}

export async function echoScenario(ctx: BenchContext, servers: Servers): Promise<ScenarioResult> {
  const duration = ctx.quick ? 1 : 10;
  const warmup = ctx.quick ? 1 : 3;
  const rateDuration = ctx.quick ? 1 : 10;
  const body = sendBody('hello from the benchmark');
  const load = (s: RunningServer, extra: { duration: number; connections: number; overallRate?: number }) =>
    runLoad({ url: `${s.url}/a2a/echo`, body, headers: A2A_HEADERS, expect: EXPECT, ...extra });

  const good: Record<ServerKind, number> = { switchboard: 0, 'ref-sdk': 0, 'next-floor': 0 };
  const throughput: Record<ServerKind, LoadResult[]> = { switchboard: [], 'ref-sdk': [], 'next-floor': [] };
  const fixed: Record<ServerKind, LoadResult[]> = { switchboard: [], 'ref-sdk': [], 'next-floor': [] };
  const steady: Record<ServerKind, SteadyRun[]> = { switchboard: [], 'ref-sdk': [], 'next-floor': [] };
  /** Server CPU per answered send: robust to other load on the machine, unlike sends/s. */
  const cpuMs: Record<ServerKind, number[]> = { switchboard: [], 'ref-sdk': [], 'next-floor': [] };
  /** Cores other processes on the machine used during each measured run. */
  const foreign: number[] = [];

  for (const kind of SERVER_KINDS) {
    ctx.log(`echo: warm-up ${kind}`);
    good[kind] += (await load(servers[kind], { duration: warmup, connections: CONNECTIONS })).good;
  }
  for (let run = 0; run < ctx.runs; run++) {
    for (const kind of SERVER_KINDS) {
      const cpuBefore = servers[kind].cpuSeconds();
      const mark = markLoad(cpuBefore);
      const r = await load(servers[kind], { duration, connections: CONNECTIONS });
      const cpuAfter = servers[kind].cpuSeconds();
      const cpu = ((cpuAfter - cpuBefore) * 1000) / r.good;
      foreign.push(round(foreignCores(mark, cpuAfter), 2));
      good[kind] += r.good;
      throughput[kind].push(r);
      cpuMs[kind].push(round(cpu, 3));
      ctx.log(`echo run ${run + 1}/${ctx.runs} ${kind}: ${fmt(r.rps)}/s p99 ${r.latencyMs.p99} ms, ${fmt(cpu, 3)} ms CPU per send (bad ${r.bad}, errors ${r.errors}; other processes ${fmt(foreign[foreign.length - 1], 2)} cores)`);
    }
  }
  for (let run = 0; run < ctx.runs; run++) {
    for (const kind of SERVER_KINDS) {
      const paced = await pacedLoad({ url: `${servers[kind].url}/a2a/echo`, body, headers: A2A_HEADERS, expect: EXPECT, rate: FIXED_RATE, seconds: rateDuration });
      const s: SteadyRun = { p50: paced.latency.percentile(50), p99: paced.latency.percentile(99), max: paced.latency.max, good: paced.good, bad: paced.bad, skipped: paced.skipped };
      good[kind] += paced.good;
      steady[kind].push(s);
      ctx.log(`echo steady ${FIXED_RATE}/s run ${run + 1}/${ctx.runs} ${kind}: p50 ${s.p50} p99 ${s.p99} max ${s.max} ms (bad ${s.bad}, skipped ${s.skipped})`);
      const r = await load(servers[kind], { duration: rateDuration, connections: 10, overallRate: FIXED_RATE });
      good[kind] += r.good;
      fixed[kind].push(r);
      ctx.log(`echo autocannon ${FIXED_RATE}/s (bursts) run ${run + 1}/${ctx.runs} ${kind}: p50 ${r.latencyMs.p50} p99 ${r.latencyMs.p99} ms`);
    }
  }

  const rps = Object.fromEntries(SERVER_KINDS.map((k) => [k, spread(throughput[k].map((r) => round(r.rps)))])) as Record<ServerKind, Spread>;
  const p99 = Object.fromEntries(SERVER_KINDS.map((k) => [k, spread(steady[k].map((r) => r.p99))])) as Record<ServerKind, Spread>;
  const p50 = Object.fromEntries(SERVER_KINDS.map((k) => [k, spread(steady[k].map((r) => r.p50))])) as Record<ServerKind, Spread>;
  const burstP99 = Object.fromEntries(SERVER_KINDS.map((k) => [k, spread(fixed[k].map((r) => r.latencyMs.p99))])) as Record<ServerKind, Spread>;
  const cpu = Object.fromEntries(SERVER_KINDS.map((k) => [k, spread(cpuMs[k])])) as Record<ServerKind, Spread>;
  const loadP99 = Object.fromEntries(SERVER_KINDS.map((k) => [k, spread(throughput[k].map((r) => r.latencyMs.p99))])) as Record<ServerKind, Spread>;
  const bad = Object.fromEntries(
    SERVER_KINDS.map((k) => [k, [...throughput[k], ...fixed[k]].reduce((n, r) => n + r.bad + r.errors, 0) + steady[k].reduce((n, r) => n + r.bad, 0)]),
  );
  // Same-run ratios: run i of Switchboard against run i of the others, then the median.
  const ratioTo = (other: ServerKind) => spread(throughput.switchboard.map((r, i) => round(r.rps / throughput[other][i].rps, 2)));
  const toFloor = ratioTo('next-floor');
  const toRef = ratioTo('ref-sdk');
  const persisted = persistedCounts(servers.switchboard.dbFile!, 'echo');

  const range = (s: Spread, digits = 0) => `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`;
  const table = [
    ['server', `sends/s, ${CONNECTIONS} conns`, 'server CPU ms per send', 'p99 ms under load', `p50 ms @${FIXED_RATE}/s steady`, `p99 ms @${FIXED_RATE}/s steady`, `p99 ms, autocannon ${FIXED_RATE}/s (bursts)`, 'vs ref-sdk', 'vs next-floor'],
    ...SERVER_KINDS.map((k) => [
      k,
      range(rps[k]),
      range(cpu[k], 2),
      range(loadP99[k]),
      range(p50[k]),
      range(p99[k]),
      range(burstP99[k]),
      k === 'switchboard' ? `${range(toRef, 2)}×` : k === 'ref-sdk' ? '1×' : `${fmt(rps[k].median / rps['ref-sdk'].median, 2)}×`,
      k === 'switchboard' ? `${range(toFloor, 2)}×` : k === 'next-floor' ? '1×' : `${fmt(rps[k].median / rps['next-floor'].median, 2)}×`,
    ]),
  ];
  return {
    id: 'echo',
    title: '1. Echo throughput (blocking SendMessage)',
    params: { connections: CONNECTIONS, durationSec: duration, warmupSec: warmup, runs: ctx.runs, fixedRate: FIXED_RATE, fixedRateDurationSec: rateDuration },
    data: {
      rps, cpuMsPerSend: cpu, foreignCores: foreign, loadP99, fixedP50: p50, fixedP99: p99, burstP99, ratioToFloor: toFloor, ratioToRef: toRef,
      badResponses: bad, goodResponses: good, persisted, raw: { throughput, fixed, steady },
    },
    table,
    targets: [
      { name: 'Switchboard ≥ 0.75× next-floor (same run)', value: `${fmt(toFloor.median, 2)}×`, met: toFloor.median >= 0.75 },
      { name: `p99 < 25 ms at ${FIXED_RATE} req/s (steady)`, value: `${fmt(p99.switchboard.median, 1)} ms`, met: p99.switchboard.median < 25 },
      // Runs end with requests in flight: the server completes (and stores) them, the load tool
      // stops counting. So: no fewer completed rows than good answers, and no task left unfinished.
      {
        name: 'every answered task persisted, none left unfinished',
        value: `${fmt(persisted.completed)} completed of ${fmt(persisted.tasks)} rows; ${fmt(good.switchboard)} good answers`,
        met: persisted.completed >= good.switchboard && persisted.completed === persisted.tasks,
      },
    ],
    notes: [
      `Latency at ${FIXED_RATE}/s: "steady" sends one request every ${fmt(1000 / FIXED_RATE, 1)} ms whatever the answers (open loop, latency from when each was due, so a stalled sender counts against the server; skipped: ${SERVER_KINDS.map((k) => `${k} ${steady[k].reduce((n, r) => n + r.skipped, 0)}`).join(', ')}). "Bursts" is autocannon's overallRate, kept for comparison with earlier rounds: its 10 connections send their 30 of each second back to back, so it measures 10 requests at a time, not a rate.`,
      `Bad or failed responses (all runs): ${SERVER_KINDS.map((k) => `${k} ${bad[k]}`).join(', ')}.`,
      `Other processes on the machine during the throughput runs: ${foreign.map((f) => fmt(f, 2)).join(', ')} cores (of 2). Runs with more than ~0.2 are disturbed; CPU per send is the figure least affected.`,
      `Switchboard's database after the scenario: ${fmt(persisted.tasks)} echo tasks, ${fmt(persisted.events)} events.`,
    ],
  };
}
