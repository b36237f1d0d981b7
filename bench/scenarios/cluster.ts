/**
 * Scenario 9 — a PostgreSQL cluster behind one load balancer (issue 28: "three PostgreSQL
 * instances behind one load balancer hold 300 task changes/s with cross-instance p99 < 50 ms").
 * An embedded PostgreSQL; `--instances N` (default 3) Switchboard instances on one database
 * behind a round-robin TCP balancer; echo tasks through it at the pace that makes `--changes N`
 * (default 300) task changes a second with the watched tasks' events; `--feeds N` dashboard
 * feeds (default 900) over the instances. Cross-instance latency = a watched task's event
 * committed on its instance → the frame on another instance's per-task stream (bench/lib/cluster.ts).
 * `--runs` rounds, a fresh database each.
 */
import { fmt, type BenchContext, type ScenarioResult } from '../lib/context';
import { BENCH_SECRET_KEY, clusterOptions, runCluster, type ClusterResult } from '../lib/cluster';
import { startEmbeddedPostgres } from '../../tests/support/embedded-postgres';
import { freshPgDatabase } from '../../tests/support/postgres';
import type { Histogram } from '../lib/stats';

const P99_TARGET_MS = 50;

const summary = (h: Histogram) => ({ p50: h.percentile(50), p99: h.percentile(99), max: h.max, n: h.count });

export interface ClusterArgs {
  instances?: number;
  changes?: number;
  feeds?: number;
}

export async function clusterScenario(ctx: BenchContext, given: ClusterArgs = {}): Promise<ScenarioResult> {
  const o = clusterOptions({ instances: String(given.instances ?? 3), changes: String(given.changes ?? 300), feeds: String(given.feeds ?? (ctx.quick ? 30 : 900)) });
  const seconds = ctx.quick ? 2 : 8;
  const db = await startEmbeddedPostgres();
  const rounds: ClusterResult[] = [];
  try {
    for (let round = 1; round <= ctx.runs; round++) {
      const r = await runCluster({
        ...o, seconds, feedsNice: 10, pgPid: () => db.pid(), databaseUrl: await freshPgDatabase(db.url),
        start: (env) => ctx.start('switchboard', { env: { SWITCHBOARD_SECRET_KEY: BENCH_SECRET_KEY, ...env } }),
      });
      ctx.log(`cluster round ${round}: ${r.changesPerSecond} task changes/s, loaded p50 ${r.loaded.percentile(50)} / p99 ${r.loaded.percentile(99)} ms (load ${fmt(r.loadAverage, 2)})`);
      rounds.push(r);
    }
  } finally {
    await db.stop();
  }
  const worstP99 = Math.max(...rounds.map((r) => r.loaded.percentile(99)));
  const missed = rounds.reduce((n, r) => n + r.streamProblems + r.feedsShort + r.load.bad, 0);
  return {
    id: 'cluster',
    title: `9. PostgreSQL cluster (${o.instances} instances behind one balancer, ${o.changes} task changes/s asked)`,
    params: { ...o, seconds, rounds: ctx.runs },
    data: { rounds: rounds.map((r) => ({ ...r, idle: summary(r.idle), loaded: summary(r.loaded) })) },
    table: [
      ['round (load average)', 'task changes/s committed', 'echo/s (per instance)', 'idle p50 / p99 ms', 'loaded p50 / p99 / max ms', 'cores used', 'missed'],
      ...rounds.map((r, i) => [
        `${i + 1} (${fmt(r.loadAverage, 2)})`,
        fmt(r.changesPerSecond),
        `${r.load.rps} (${r.perInstance?.join(' / ') ?? '—'})`,
        `${r.idle.percentile(50)} / ${r.idle.percentile(99)}`,
        `${r.loaded.percentile(50)} / ${r.loaded.percentile(99)} / ${r.loaded.max}`,
        Object.entries(r.cores).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', '),
        `${r.streamProblems} streams, ${r.feedsShort} feeds, ${r.load.bad} sends`,
      ]),
    ],
    targets: [
      { name: `${o.instances} instances hold ${o.changes} task changes/s`, value: rounds.map((r) => fmt(r.changesPerSecond)).join(', '), met: rounds.every((r) => r.changesPerSecond >= o.changes * 0.95) },
      { name: `cross-instance p99 < ${P99_TARGET_MS} ms under that load (every round)`, value: rounds.map((r) => `${r.loaded.percentile(99)} ms`).join(', '), met: worstP99 < P99_TARGET_MS },
      { name: 'nothing missed (stream gaps, feeds short of a frame, bad sends)', value: String(missed), met: missed === 0 },
    ],
    notes: [
      `${o.echoRate} echo tasks/s through the balancer (a connection per request, so round-robin per request) + ${rounds[0]?.streams ?? 0} per-task streams following 50 slow tasks (one event a second each) on other instances; ${o.feeds} feeds spread evenly, at nice 10.`,
      'Latency: receive time on the following instance − the event\'s commit time (`at`) on its own instance, same clock; the window starts 2 s after the feeds opened and ends with the load.',
    ],
  };
}
