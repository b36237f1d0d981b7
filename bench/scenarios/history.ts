/**
 * Scenario 5 — history at scale. 100,000 tasks with their events are written straight into a
 * fresh database through lib/db's writer (bench/seed.ts), Switchboard starts on it, and the
 * dashboard API is asked, one request at a time over HTTP on loopback (so the latency is the
 * server's own time plus well under a millisecond of loopback HTTP): the list's first page, a
 * filtered page, a task page, and text search (a rare word, a frequent one, a word with no hit,
 * used to scan everything), the detached list, the agent filter with a search, and the per-state
 * counts the list page loads (alone, with the agent filter, over 24 hours). Then
 * bench/query-plans.ts runs on the same file and prints the plan of every list, search and
 * count statement: a statement that reads a whole table or index fails the scenario's plan target.
 * `--history-tasks N` seeds N (1,000,000 for the 1M-task figures); `--history-db FILE` uses a file seeded before;
 * `--history-pg-url URL` a PostgreSQL database seeded before by bench/seed-pg.ts (the same probes and plans).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fmt, type BenchContext, type ScenarioResult } from '../lib/context';
import { percentile } from '../lib/stats';

import { RARE_WORD, seed, storedIds } from '../seed';
import { pgDatabaseBytes, storedIdsPg } from '../seed-pg';
import { BENCH_SECRET_KEY } from '../lib/cluster';
import type { RunningServer } from '../lib/servers';
import type { PlannedProbe } from '../query-plans';

interface Probe {
  name: string;
  /** p95 limit in ms; undefined = shown without a target. */
  limitMs?: number;
  path: (i: number) => string;
}

async function timeGet(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url);
  const body = await res.text();
  const ms = performance.now() - started;
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status} ${body.slice(0, 200)}`);
  return ms;
}

/** The plans of the dashboard's statements on `db` (bench/query-plans.ts in a child process: its own store). */
function plansOf(db: { file: string } | { pgUrl: string }, repeat: number, log: (m: string) => void): { probes: PlannedProbe[]; bytes: number; tasks: number } {
  const json = 'file' in db ? `${db.file}.plans.json` : path.join(os.tmpdir(), `switchboard-pg-plans-${process.pid}.json`);
  const where = 'file' in db ? ['--db', db.file] : ['--store', 'postgresql', '--url', db.pgUrl];
  const args = ['tsx', path.join(import.meta.dirname, '..', 'query-plans.ts'), ...where, '--json', json, '--repeat', String(repeat)];
  const run = spawnSync('npx', args, { encoding: 'utf8', maxBuffer: 64 * 2 ** 20, timeout: 3_600_000 });
  if (run.status !== 0) throw new Error(`query-plans: ${run.stderr.slice(-2000)}`);
  for (const line of run.stdout.split('\n')) if (line.startsWith('##') || line.includes('<< SCAN (')) log(`history plans: ${line}`);
  return JSON.parse(fs.readFileSync(json, 'utf8'));
}

/** The task ids, the server and the size of a PostgreSQL database seeded before (bench/seed-pg.ts). */
async function onPostgres(ctx: BenchContext, url: string) {
  const ids = await storedIdsPg(url);
  const server = await ctx.start('switchboard', { env: { DATABASE_URL: url, SWITCHBOARD_SECRET_KEY: BENCH_SECRET_KEY } });
  return { ids, server, dbMb: Math.round((await pgDatabaseBytes(url)) / 2 ** 20), plans: { pgUrl: url } };
}

/** A SQLite file: seeded now (N tasks) or before (`db`). */
function onSqlite(ctx: BenchContext, given: { tasks?: number; db?: string }) {
  const dbDir = given.db ? path.dirname(given.db) : fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-history-'));
  const dbFile = given.db ?? path.join(dbDir, 'switchboard.db');
  const seededAt = Date.now();
  const seeded = given.db ? null : seed(dbFile, given.tasks ?? (ctx.quick ? 5_000 : 100_000), ctx.log);
  if (seeded) ctx.log(`history: seeded ${fmt(seeded.ids.length)} tasks in ${fmt((Date.now() - seededAt) / 1000, 1)} s (${fmt(fs.statSync(dbFile).size / 2 ** 20)} MB)`);
  return { ids: seeded?.ids ?? storedIds(dbFile), dbFile, cleanup: () => !process.env.SWITCHBOARD_BENCH_KEEP_DB && !given.db && fs.rmSync(dbDir, { recursive: true, force: true }) };
}

export async function historyScenario(ctx: BenchContext, given: { tasks?: number; db?: string; pgUrl?: string } = {}): Promise<ScenarioResult> {
  const samples = ctx.quick ? 10 : 100;
  const store = given.pgUrl ? 'PostgreSQL' : 'SQLite';
  let target: { ids: string[]; server: RunningServer; dbMb: number; plans: { file: string } | { pgUrl: string }; cleanup?: () => unknown };
  if (given.pgUrl) target = await onPostgres(ctx, given.pgUrl);
  else {
    const s = onSqlite(ctx, given);
    target = { ...s, server: await ctx.start('switchboard', { dbFile: s.dbFile }), dbMb: Math.round(fs.statSync(s.dbFile).size / 2 ** 20), plans: { file: s.dbFile } };
  }
  const { ids, server, dbMb } = target;
  const pickId = (i: number) => ids[(i * 7919) % ids.length];
  const probes: Probe[] = [
    { name: 'list, first page', limitMs: 50, path: () => '/api/tasks' },
    { name: 'list, filtered (state=failed)', limitMs: 50, path: () => '/api/tasks?state=failed' },
    { name: 'list, filtered (agent=echo, 24h)', limitMs: 50, path: () => '/api/tasks?agent=echo&range=24h' },
    { name: 'task page (GET /api/tasks/:id)', limitMs: 50, path: (i) => `/api/tasks/${pickId(i)}` },
    { name: `search, rare word (?q=${RARE_WORD}, 1%)`, limitMs: 200, path: () => `/api/tasks?q=${RARE_WORD}` },
    { name: 'search, frequent word (?q=invoice)', limitMs: 200, path: () => '/api/tasks?q=invoice' },
    { name: 'search, no hit (?q=nothing-matches)', limitMs: 200, path: () => '/api/tasks?q=nothing-matches' },
    { name: 'list, detached', limitMs: 50, path: () => '/api/tasks?state=detached' },
    { name: 'search, rare word with agent=echo', limitMs: 200, path: () => `/api/tasks?q=${RARE_WORD}&agent=echo` },
    // Counts are shared for a second (lib/dashboard/task-list.ts), so over HTTP most of these are
    // answered from that cache; their targets are taken from query-plans' uncached runs below.
    { name: 'per-state counts (mostly cached)', path: () => '/api/tasks/counts' },
    { name: 'per-state counts, agent=echo, 24h (mostly cached)', path: () => '/api/tasks/counts?agent=echo&range=24h' },
  ];
  const results: { probe: Probe; p50: number; p95: number; max: number }[] = [];
  let plans: ReturnType<typeof plansOf>;
  try {
    for (const probe of probes) {
      for (let i = 0; i < 3; i++) await timeGet(server.url + probe.path(i)); // warm-up
      const ms: number[] = [];
      for (let i = 0; i < samples; i++) ms.push(await timeGet(server.url + probe.path(i + 3)));
      const r = { probe, p50: percentile(ms, 50), p95: percentile(ms, 95), max: Math.max(...ms) };
      results.push(r);
      ctx.log(`history: ${probe.name}: p50 ${fmt(r.p50, 1)} ms, p95 ${fmt(r.p95, 1)} ms`);
    }
  } finally {
    await server.stop();
  }
  try {
    plans = plansOf(target.plans, ctx.quick ? 3 : 20, ctx.log);
  } finally {
    target.cleanup?.();
  }
  const scanning = plans.probes.filter((p) => p.scans.length);
  const count = plans.tasks;
  return {
    id: 'history',
    title: `5. History at scale (${fmt(count)} tasks stored, ${store})`,
    params: { store, tasks: count, samplesPerProbe: samples, dbMb, bytesPerTask: Math.round(plans.bytes / count) },
    data: { probes: results.map((r) => ({ name: r.probe.name, limitMs: r.probe.limitMs, p50: r.p50, p95: r.p95, max: r.max })), plans: plans.probes },
    table: [
      ['request', 'p50 ms', 'p95 ms', 'max ms', 'target p95'],
      ...results.map((r) => [r.probe.name, fmt(r.p50, 1), fmt(r.p95, 1), fmt(r.max, 1), r.probe.limitMs ? `< ${r.probe.limitMs} ms` : '—']),
    ],
    targets: [
      ...results
        .filter((r) => r.probe.limitMs)
        .map((r) => ({ name: `${r.probe.name}: p95 < ${r.probe.limitMs} ms`, value: `${fmt(r.p95, 1)} ms`, met: r.p95 < r.probe.limitMs! })),
      ...plans.probes
        .filter((p) => p.name.startsWith('counts') && !p.name.includes('search') && p.p95 !== undefined)
        .map((p) => ({ name: `${p.name} (uncached, in process): p95 < 50 ms`, value: `${fmt(p.p95!, 1)} ms`, met: p.p95! < 50 })),
      { name: 'no list, search or count statement reads a whole table or index', value: scanning.length ? scanning.map((p) => p.name).join('; ') : 'none does', met: scanning.length === 0 },
    ],
    notes: [
      `One request at a time over loopback HTTP (${samples} per row after 3 warm-up requests); the database is ${fmt(dbMb)} MB, ${fmt(plans.bytes / count)} bytes per task.`,
      // Every statement's plan, as bench/query-plans.ts printed it (SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN).
      ...plans.probes.map((p) => `plan of ${p.name}: ${p.statements.map((st) => st.plan.join(' / ')).join(' | ') || '(cached: no statement)'}`),
    ],
  };
}
