/**
 * PostgreSQL bench, on its own: `npm run bench:pg -- [--dist .next-bench] [--build]
 * [--seconds 8] [--rounds 3] [--rate 100] [--only echo,stream,takeover,cross,detach] [--detached 10000] [--baseline DIR] [--cpu-prof] [--feeds-nice 10]`.
 * Builds into --dist if it holds no build (--build: always). Starts an embedded PostgreSQL (its
 * settings: bench/README.md). `--baseline DIR`: a checkout of another commit, built into the same
 * --dist, whose servers run interleaved with this tree's in echo and cross (before/after in one run).
 *
 * 1. echo: blocking SendMessage to `echo`, 50 connections, SQLite and PostgreSQL servers
 *    interleaved (S, P, S, P…), after a warm-up each; sends/s, server CPU ms per send and
 *    PostgreSQL's own CPU per send, and the PostgreSQL / SQLite ratio per round.
 * 2. stream: SendStreamingMessage to `slow` with `work 0s chunks N size 500`, N = 200 and 2,000,
 *    on PostgreSQL: ms per chunk for each N (linear in chunks = about the same per chunk).
 * 3. takeover: A and B with a 1 s lease; `kill -9` of A while it runs a slow turn; time until B
 *    has ended it FAILED `interrupted: instance lost`.
 * 4. two instances A and B on one database: per-task streams on B follow long `slow` tasks
 *    running on A (one event a second each). Cross-instance latency = receive time on B − the
 *    event's commit time (`at`, same clock), first with both instances idle otherwise, then
 *    under load: 100 echo tasks/s sent to A at a steady pace (paced-load.ts) and dashboard feeds
 *    on both instances (in a child process, feed-swarm.ts, so that they do not delay the clock
 *    of the measured streams). Missed: a per-task stream with a seq gap or no end, or a feed
 *    that did not see every completed task (checked on the parsing feeds) or lacks a frame its
 *    instance sent after the last feed opened (all feeds, see feed-swarm.ts).
 * 5. detach (only when asked: `--only detach`): scenario 6 of `npm run bench` on PostgreSQL,
 *    `--detached N` tasks at once (bench/lib/detach-burst.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { A2A_HEADERS, postJson, sendBody, streamBody } from './lib/a2a';
import { buildSwitchboard, hasBuild } from './lib/build';
import { runDetachBurst, workSecondsFor } from './lib/detach-burst';
import { runLoad } from './lib/load';
import { detachedCount } from './lib/options';
import { detachReport } from './scenarios/detach';
import { BENCH_SECRET_KEY, clusterLine, clusterOptions, runCluster } from './lib/cluster';
import { cpuSecondsOf, killAllServers, startServer, type RunningServer } from './lib/servers';
import { readSse } from './lib/sse-client';
import { startEmbeddedPostgres, type EmbeddedServer } from '../tests/support/embedded-postgres';
import { freshPgDatabase } from '../tests/support/postgres';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const distDir = arg('dist', '.next-bench');
const seconds = Number(arg('seconds', '8'));
const rounds = Number(arg('rounds', '3'));
const baselineDir = arg('baseline', '');
const EXPECT = 'TASK_STATE_COMPLETED';
/** `--cpu-prof`: every Switchboard server writes a V8 profile on exit (summarise with bench/profile-summary.ts). */
const cpuProfDir = process.argv.includes('--cpu-prof') ? path.resolve('bench/results/profiles') : undefined;
if (cpuProfDir) fs.mkdirSync(cpuProfDir, { recursive: true });

/** The trees measured: this one, and the baseline checkout if given. */
interface Tree {
  label: string;
  cwd?: string;
}
const trees: Tree[] = [{ label: 'this tree' }, ...(baselineDir ? [{ label: 'baseline', cwd: path.resolve(baselineDir) }] : [])];
const start = (env: Record<string, string> = {}, tree: Tree = trees[0]) => startServer('switchboard', { distDir, cpuProfDir, env: { SWITCHBOARD_SECRET_KEY: BENCH_SECRET_KEY, ...env }, cwd: tree.cwd });
const load1 = () => os.loadavg()[0].toFixed(2);

const msPer = (cpuSeconds: number, n: number) => Math.round((cpuSeconds * 1000 * 100) / n) / 100;

/** PostgreSQL's CPU (the postmaster and its backends) is counted apart from the server's. */
async function echoRun(server: RunningServer, db?: EmbeddedServer): Promise<{ rps: number; cpuMsPerSend: number; pgCpuMsPerSend?: number }> {
  const body = sendBody('bench');
  await runLoad({ url: `${server.url}/a2a/echo`, body, headers: A2A_HEADERS, expect: EXPECT, connections: 50, duration: 2 });
  const cpu0 = server.cpuSeconds();
  const pg0 = db ? cpuSecondsOf(db.pid()) : 0;
  const load = await runLoad({ url: `${server.url}/a2a/echo`, body, headers: A2A_HEADERS, expect: EXPECT, connections: 50, duration: seconds });
  if (load.bad || load.errors) throw new Error(`echo: ${load.bad} bad, ${load.errors} errors`);
  const pgCpu = db ? { pgCpuMsPerSend: msPer(cpuSecondsOf(db.pid()) - pg0, load.good) } : {};
  return { rps: Math.round(load.rps), cpuMsPerSend: msPer(server.cpuSeconds() - cpu0, load.good), ...pgCpu };
}

async function echoComparison(db: EmbeddedServer): Promise<void> {
  const ratios = new Map<string, number[]>(trees.map((t) => [t.label, []]));
  for (let round = 1; round <= rounds; round++) {
    const sqlite = await start();
    const s = await echoRun(sqlite).finally(() => sqlite.stop());
    const line = [`echo round ${round} (load ${load1()}): SQLite ${s.rps} sends/s (${s.cpuMsPerSend} ms CPU/send)`];
    for (const tree of round % 2 ? trees : [...trees].reverse()) {
      const postgres = await start({ DATABASE_URL: await freshPgDatabase(db.url) }, tree);
      const p = await echoRun(postgres, db).finally(() => postgres.stop());
      ratios.get(tree.label)!.push(p.rps / s.rps);
      line.push(`PostgreSQL (${tree.label}) ${p.rps} sends/s (${p.cpuMsPerSend} ms CPU/send + ${p.pgCpuMsPerSend} ms in PostgreSQL), ratio ${(p.rps / s.rps).toFixed(2)}`);
    }
    console.log(`${line.join('; ')} (load ${load1()})`);
  }
  for (const [label, rs] of ratios) console.log(`echo: PostgreSQL (${label}) / SQLite per round ${rs.map((r) => r.toFixed(2)).join(', ')}`);
}

async function streamLinearity(adminUrl: string): Promise<void> {
  const server = await start({ DATABASE_URL: await freshPgDatabase(adminUrl) });
  try {
    const perChunk: Record<number, number[]> = { '200': [], '2000': [] };
    for (let run = 0; run < 3; run++) {
      for (const chunks of [200, 2000]) {
        let received = 0;
        const started = Date.now();
        await readSse({
          url: `${server.url}/a2a/slow`,
          method: 'POST',
          headers: A2A_HEADERS,
          body: streamBody(`work 0s chunks ${chunks} size 500`, randomUUID()),
          onFrame: (frame) => {
            received += (frame.data.match(/"artifactUpdate"/g) ?? []).length;
          },
        });
        if (received !== chunks) throw new Error(`stream: ${received} of ${chunks} chunks`);
        perChunk[chunks].push((Date.now() - started) / chunks);
      }
    }
    const best = (xs: number[]) => Math.min(...xs).toFixed(3);
    console.log(`stream on PostgreSQL: ${best(perChunk[200])} ms/chunk at 200 chunks, ${best(perChunk[2000])} ms/chunk at 2,000 (best of 3)`);
  } finally {
    await server.stop();
  }
}

async function takeover(adminUrl: string): Promise<void> {
  const DATABASE_URL = await freshPgDatabase(adminUrl);
  const env = { DATABASE_URL, SWITCHBOARD_LEASE: '1' };
  const a = await start({ ...env, SWITCHBOARD_INSTANCE_ID: 'a' });
  const b = await start({ ...env, SWITCHBOARD_INSTANCE_ID: 'b' });
  try {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'work 60s chunks 60' }] }, configuration: { returnImmediately: true } } });
    const id = ((await postJson(`${a.url}/a2a/slow`, body, A2A_HEADERS)).result as { task: { id: string } }).task.id;
    for (;;) {
      const h = (await (await fetch(`${a.url}/api/health`)).json()) as { leases: { held: number } };
      if (h.leases.held === 1) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 300)); // the lease row is written (20 ms batches)
    process.kill(-a.pid, 'SIGKILL');
    const killedAt = Date.now();
    const get = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id } });
    for (;;) {
      const task = (await postJson(`${b.url}/a2a/slow`, get, A2A_HEADERS)).result as { status: { state: string } };
      if (task.status.state !== 'TASK_STATE_WORKING') {
        console.log(`takeover: kill -9 of A → B ended its turn ${task.status.state} after ${Date.now() - killedAt} ms (lease 1 s, renewed every 333 ms)`);
        break;
      }
      if (Date.now() - killedAt > 30_000) throw new Error('takeover: no takeover within 30 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
}

/** `--rate N`: cross: echo tasks a second sent to A during the load (each is several task changes). */
const TASKS_PER_SECOND = Number(arg('rate', '100'));

/**
 * `--feeds-nice N` (default 10): the feed process's CPU priority. Its connections stand for
 * browsers on other machines; on this shared 2-core machine they would otherwise compete with
 * the instances and PostgreSQL for the same cores. They still read (and check) every frame.
 */
const FEEDS_NICE = Number(arg('feeds-nice', '10'));

/** 4. two instances A and B (bench/lib/cluster.ts): the load and the watched tasks on A, the streams on B. */
async function crossInstance(db: EmbeddedServer, tree: Tree): Promise<void> {
  const r = await runCluster({
    instances: 2, balanced: false, echoRate: TASKS_PER_SECOND, seconds, feeds: 900, feedsNice: FEEDS_NICE,
    start: (env) => start(env, tree), pgPid: () => db.pid(), databaseUrl: await freshPgDatabase(db.url),
  });
  console.log(clusterLine(r, tree.label, TASKS_PER_SECOND, FEEDS_NICE));
}

/** 6. the cluster (`--only cluster`): `--instances N` behind one balancer at `--changes N` task changes/s. */
async function cluster(db: EmbeddedServer, tree: Tree): Promise<void> {
  const o = clusterOptions({ instances: arg('instances', '3'), changes: arg('changes', '300'), feeds: arg('feeds', '900') });
  const r = await runCluster({ ...o, seconds, feedsNice: FEEDS_NICE, start: (env) => start(env, tree), pgPid: () => db.pid(), databaseUrl: await freshPgDatabase(db.url) });
  console.log(clusterLine(r, tree.label, o.echoRate, FEEDS_NICE));
}

/** 5. detach: scenario 6 of `npm run bench` on PostgreSQL (`--detached N`, default 10,000). */
async function detachBurst(adminUrl: string): Promise<void> {
  const total = detachedCount(arg('detached', '10000'));
  const databaseUrl = await freshPgDatabase(adminUrl);
  const server = await start({ DATABASE_URL: databaseUrl, SWITCHBOARD_RESPONSE_WINDOW: '1', SWITCHBOARD_QUERY_LOG: '1' });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const r = await runDetachBurst({
      url: server.url,
      total,
      workSeconds: workSecondsFor(total, false),
      count: async (sql) => Number((await client.query<{ n: string }>(sql)).rows[0].n),
      rssMb: () => server.rssMb(),
      log: (m) => console.log(m),
    });
    const report = detachReport(r, 'PostgreSQL');
    for (const t of report.targets) console.log(`detach (PostgreSQL): ${t.met ? 'met' : 'MISSED'} ${t.name}: ${t.value}`);
    console.log(`detach (PostgreSQL): ${report.table[0].map((h, i) => `${h}: ${report.table[1][i]}`).join('; ')}`);
    for (const note of report.notes) console.log(`detach (PostgreSQL): ${note}`);
  } finally {
    await client.end();
    await server.stop();
  }
}

async function main(): Promise<void> {
  if (process.argv.includes('--build') || !hasBuild(distDir)) buildSwitchboard(distDir);
  const server = await startEmbeddedPostgres();
  console.log(`PostgreSQL ${(await adminQuery(server.url, 'SHOW server_version'))[0].server_version}: ${(await adminQuery(server.url, PG_SETTINGS_SQL)).map((r) => `${r.name}=${r.setting}${r.unit ?? ''}`).join(', ')}`);
  try {
    const only = arg('only', 'echo,stream,takeover,cross').split(',');
    if (only.includes('echo')) await echoComparison(server);
    if (only.includes('stream')) await streamLinearity(server.url);
    if (only.includes('takeover')) await takeover(server.url);
    if (only.includes('detach')) await detachBurst(server.url);
    if (only.includes('cross')) for (let round = 1; round <= rounds; round++) for (const tree of round % 2 ? trees : [...trees].reverse()) await crossInstance(server, tree);
    if (only.includes('cluster')) for (let round = 1; round <= rounds; round++) for (const tree of round % 2 ? trees : [...trees].reverse()) await cluster(server, tree);
  } finally {
    killAllServers();
    await server.stop();
  }
}

/** The settings that decide what a durable commit costs (printed with every run; fsync and synchronous_commit stay on). */
const PG_SETTINGS_SQL = 'SELECT name, setting, unit FROM pg_settings WHERE name IN (\'fsync\',\'synchronous_commit\',\'wal_sync_method\',\'full_page_writes\',\'shared_buffers\',\'wal_buffers\',\'commit_delay\',\'max_connections\') ORDER BY name';

async function adminQuery(url: string, sql: string): Promise<Record<string, string | null>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Record<string, string | null>>(sql)).rows;
  } finally {
    await client.end();
  }
}

main().catch((err) => {
  console.error(err);
  killAllServers();
  process.exit(1);
});
