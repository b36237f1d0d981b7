/**
 * Scenario 5 — history at scale. 100,000 tasks with their events are written straight into a
 * fresh database through lib/db's writer (bench/seed.ts), Switchboard starts on it, and the
 * dashboard API is asked, one request at a time over HTTP on loopback (so the latency is the
 * server's own time plus well under a millisecond of loopback HTTP): the list's first page, a
 * filtered page, a task page, and text search (a rare word, a frequent one, a word with no hit,
 * which scans everything). The per-state counts the list page also loads are shown without a
 * target.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fmt, type BenchContext, type ScenarioResult } from '../lib/context';
import { percentile } from '../lib/stats';
import { RARE_WORD, seed } from '../seed';

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

export async function historyScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const count = ctx.quick ? 5_000 : 100_000;
  const samples = ctx.quick ? 10 : 100;
  const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-history-'));
  const dbFile = path.join(dbDir, 'switchboard.db');
  const seededAt = Date.now();
  const { ids } = seed(dbFile, count, ctx.log);
  ctx.log(`history: seeded ${fmt(count)} tasks in ${fmt((Date.now() - seededAt) / 1000, 1)} s (${fmt(fs.statSync(dbFile).size / 2 ** 20)} MB)`);
  const server = await ctx.start('switchboard', { dbFile });
  const pickId = (i: number) => ids[(i * 7919) % ids.length];
  const probes: Probe[] = [
    { name: 'list, first page', limitMs: 50, path: () => '/api/tasks' },
    { name: 'list, filtered (state=failed)', limitMs: 50, path: () => '/api/tasks?state=failed' },
    { name: 'list, filtered (agent=echo, 24h)', limitMs: 50, path: () => '/api/tasks?agent=echo&range=24h' },
    { name: 'task page (GET /api/tasks/:id)', limitMs: 50, path: (i) => `/api/tasks/${pickId(i)}` },
    { name: `search, rare word (?q=${RARE_WORD}, 1%)`, limitMs: 200, path: () => `/api/tasks?q=${RARE_WORD}` },
    { name: 'search, frequent word (?q=invoice)', limitMs: 200, path: () => '/api/tasks?q=invoice' },
    { name: 'search, no hit (?q=nothing-matches)', limitMs: 200, path: () => '/api/tasks?q=nothing-matches' },
    { name: 'per-state counts (no target)', path: () => '/api/tasks/counts' },
  ];
  const results: { probe: Probe; p50: number; p95: number; max: number }[] = [];
  const dbMb = Math.round(fs.statSync(dbFile).size / 2 ** 20);
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
    if (!process.env.SWITCHBOARD_BENCH_KEEP_DB) fs.rmSync(dbDir, { recursive: true, force: true });
  }
  return {
    id: 'history',
    title: `5. History at scale (${fmt(count)} tasks stored)`,
    params: { tasks: count, samplesPerProbe: samples, dbMb },
    data: { probes: results.map((r) => ({ name: r.probe.name, limitMs: r.probe.limitMs, p50: r.p50, p95: r.p95, max: r.max })) },
    table: [
      ['request', 'p50 ms', 'p95 ms', 'max ms', 'target p95'],
      ...results.map((r) => [r.probe.name, fmt(r.p50, 1), fmt(r.p95, 1), fmt(r.max, 1), r.probe.limitMs ? `< ${r.probe.limitMs} ms` : '—']),
    ],
    targets: results
      .filter((r) => r.probe.limitMs)
      .map((r) => ({ name: `${r.probe.name}: p95 < ${r.probe.limitMs} ms`, value: `${fmt(r.p95, 1)} ms`, met: r.p95 < r.probe.limitMs! })),
    notes: [`One request at a time over loopback HTTP (${samples} per row after 3 warm-up requests); the database is ${fmt(dbMb)} MB.`],
  };
}
