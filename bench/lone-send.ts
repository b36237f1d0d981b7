/**
 * What a send costs the server when it comes alone (issue 28, "p99 < 25 ms at 300 req/s"): server
 * CPU per echo send at steady rates (bench/lib/paced-load.ts, one send every 1000/rate ms, the
 * load of decision 419) and at 50 connections (the crowd, where the group commit is shared),
 * the p50/p99 of the steady runs, and the server's CPU per second when nothing is sent (its
 * timers: at 50/s that idle cost is spread over few sends).
 *
 *   npx tsx bench/lone-send.ts [--dist .next] [--baseline DIR] [--rounds N] [--rates 50,300]
 *                              [--seconds 20] [--sends 5000] [--idle 10] [--queries] [--floor] [--cpu-prof]
 *
 * --baseline DIR measures the Switchboard built in another checkout (DIR/.next), interleaved with
 * this tree's in each round (as bench/cpu-cost.ts); --dist2 DIR a second build of this tree (a
 * variant built with SWITCHBOARD_DIST_DIR=DIR), likewise. --queries starts the servers with
 * SWITCHBOARD_QUERY_LOG=1 and reports reads, writes and commits per send (counting costs a
 * little CPU: take CPU figures from a run without it). --floor adds the bare Next.js route
 * (bench/next-floor) to each round: what a lone request costs a server that does nothing. --cpu-prof writes each server's V8
 * profile to bench/results/profiles/ (bench/profile-summary.ts; the warm-up comes first).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { A2A_HEADERS, sendBody } from './lib/a2a';
import { runLoad } from './lib/load';
import { cliOption } from './lib/options';
import { pacedLoad } from './lib/paced-load';
import { countsBetween, queryCounts, type QueryCounts } from './lib/query-counts';
import { killAllServers, startServer, type RunningServer, type ServerKind } from './lib/servers';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => cliOption(name, fallback, args);
const distDir = option('--dist', '.next');
const baseline = option('--baseline', '');
const otherDist = option('--dist2', '');
const rounds = Number(option('--rounds', '1'));
const rates = option('--rates', '50,300').split(',').map(Number);
const seconds = Number(option('--seconds', '20'));
const sends = Number(option('--sends', '5000'));
const idleSeconds = Number(option('--idle', '10'));
const withQueries = args.includes('--queries');
const withFloor = args.includes('--floor');
const cpuProfDir = args.includes('--cpu-prof') ? path.resolve('bench/results/profiles') : undefined;
const EXPECT = 'TASK_STATE_COMPLETED';

const loadAverage = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

/** The server process's kernel-mode CPU seconds (all its threads), to split CPU into user and system. */
function systemSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[12]) / 100; // stime, in USER_HZ
}

/** CPU seconds of the server's threads other than its main one (V8's GC helpers, libuv's pool, the WAL checkpointer's worker). */
function otherThreadSeconds(pid: number): number {
  let ticks = 0;
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    if (Number(tid) === pid) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the thread ended
    }
  }
  return ticks / 100;
}

interface Measured {
  cpuMs: number;
  /** Of cpuMs, in the kernel (syscalls, wake-ups). */
  sysMs: number;
  /** Of cpuMs, on threads other than the main one. */
  threadsMs: number;
  units: number;
  counts?: QueryCounts;
  checkpoints?: number;
}

/** Server CPU ms per unit of `work`, and the query counts per unit when counted. */
async function measure(server: RunningServer, work: () => Promise<number>): Promise<Measured> {
  const q0 = withQueries && server.kind === 'switchboard' ? await queryCounts(server.url) : undefined;
  const [cpu0, sys0, threads0] = [server.cpuSeconds(), systemSeconds(server.pid), otherThreadSeconds(server.pid)];
  const units = await work();
  const cpuMs = ((server.cpuSeconds() - cpu0) * 1000) / units;
  const sysMs = ((systemSeconds(server.pid) - sys0) * 1000) / units;
  const threadsMs = ((otherThreadSeconds(server.pid) - threads0) * 1000) / units;
  const q1 = q0 ? await queryCounts(server.url) : undefined;
  const counts = q0 && q1 ? countsBetween(q0, q1, units) : undefined;
  const checkpoints = q0 && q1 ? (q1.checkpoints - q0.checkpoints) / units : undefined;
  return { cpuMs, sysMs, threadsMs, units, counts, checkpoints };
}

const crowd = (server: RunningServer, amount: number) => async () => {
  const r = await runLoad({ url: `${server.url}/a2a/echo`, body: sendBody('hello'), headers: A2A_HEADERS, connections: 50, amount, expect: EXPECT });
  if (r.bad || r.errors) throw new Error(`${r.bad} bad, ${r.errors} errors`);
  return r.good;
};

async function idleCpuPerSecond(server: RunningServer): Promise<number> {
  const cpu0 = server.cpuSeconds();
  await new Promise((r) => setTimeout(r, idleSeconds * 1000)); // the observation period itself
  return ((server.cpuSeconds() - cpu0) * 1000) / idleSeconds;
}

const countsText = (m: Measured) =>
  m.counts ? `; per send ${m.counts.reads} reads, ${m.counts.writes} writes, ${m.counts.commits} commits, ${m.counts.prisma} prisma, ${m.checkpoints?.toFixed(3)} checkpoint passes` : '';
const cpuText = (m: Measured) => `${m.cpuMs.toFixed(2)} ms CPU per send (${m.sysMs.toFixed(2)} system, ${m.threadsMs.toFixed(2)} off the main thread)`;

async function measureServer(name: string, server: RunningServer): Promise<void> {
  await crowd(server, 2000)(); // warm-up: JIT, first loads
  await pacedLoad({ url: `${server.url}/a2a/echo`, body: sendBody('hello'), headers: A2A_HEADERS, rate: 100, seconds: 3, expect: EXPECT });
  const idle = await idleCpuPerSecond(server);
  console.log(`${name.padEnd(12)} idle: ${idle.toFixed(2)} ms CPU per second`);
  for (const rate of rates) {
    let p50 = 0;
    let p99 = 0;
    let skipped = 0;
    const m = await measure(server, async () => {
      const r = await pacedLoad({ url: `${server.url}/a2a/echo`, body: sendBody('hello'), headers: A2A_HEADERS, rate, seconds, expect: EXPECT });
      if (r.bad) throw new Error(`${name}: ${r.bad} bad at ${rate}/s`);
      [p50, p99, skipped] = [r.latency.percentile(50), r.latency.percentile(99), r.skipped];
      return r.good;
    });
    console.log(`${name.padEnd(12)} steady ${rate}/s: ${cpuText(m)}, p50 ${p50} / p99 ${p99} ms${skipped ? `, ${skipped} skipped` : ''}${countsText(m)}`);
  }
  const c = await measure(server, crowd(server, sends));
  console.log(`${name.padEnd(12)} 50 connections: ${cpuText(c)}${countsText(c)}`);
}

async function main(): Promise<void> {
  console.log(`load average ${loadAverage()}`);
  const targets: { name: string; kind: ServerKind; dist: string; cwd?: string }[] = [
    { name: 'branch', kind: 'switchboard', dist: distDir },
    ...(baseline ? [{ name: 'baseline', kind: 'switchboard' as const, dist: '.next', cwd: path.resolve(baseline) }] : []),
    ...(otherDist ? [{ name: otherDist, kind: 'switchboard' as const, dist: otherDist }] : []),
    ...(withFloor ? [{ name: 'next-floor', kind: 'next-floor' as const, dist: distDir }] : []),
  ];
  const env = withQueries ? { SWITCHBOARD_QUERY_LOG: '1' } : undefined;
  for (let round = 0; round < rounds; round++) {
    // Alternate which goes first, so a drift in the machine's load does not favour one side.
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    for (const { name, kind, dist, cwd } of order) {
      const server = await startServer(kind, { distDir: dist, cwd, cpuProfDir, env: kind === 'switchboard' ? env : undefined });
      try {
        await measureServer(name, server);
      } finally {
        await server.stop();
      }
      console.log(`  (round ${round + 1}, load average ${loadAverage()})`);
    }
  }
}

main().catch((err) => {
  console.error(err);
  killAllServers();
  process.exit(1);
});
