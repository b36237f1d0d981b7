/**
 * Scenario 7 — retention: pruning a large backlog of old finished tasks while echo
 * load runs. `--tasks N` tasks (default 500,000; quick 5,000) are seeded through lib/db's writer
 * (bench/seed.ts: 30 days, 95% finished), and the file is copied, one copy per server:
 * - **pruning**: Switchboard with SWITCHBOARD_TASK_RETENTION=86400 starts on a copy and deletes
 *   every task that ended more than a day ago (about 92% of them) at start-up, while blocking
 *   echo sends run in 5 s slices until nothing old is left (read from the file every slice);
 * - **without**: the same server on the other copy with no retention, the same number of slices.
 * Echo sends/s during pruning ÷ without (target ≥ 0.9×), the pruning rate, and the file size.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { A2A_HEADERS, sendBody } from '../lib/a2a';
import { fmt, type BenchContext, type ScenarioResult } from '../lib/context';
import { runLoad } from '../lib/load';
import { countRows } from '../lib/sqlite-probe';
import { seed } from '../seed';

const RETENTION_S = 86_400;
const SLICE_S = 5;
const MAX_SLICES = 120;
const EXPECT = '"TASK_STATE_COMPLETED"';

const sqliteTime = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00');
/**
 * Tasks that ended more than the retention before `at`. With `at` taken before the server starts,
 * every one of them is older than the cutoff of the server's start-up prune (its next run is an
 * hour later, so tasks crossing the line meanwhile stay until then and are not waited for).
 */
const oldTasks = (dbFile: string, at = Date.now()) => countRows(dbFile, 'SELECT COUNT(*) AS n FROM "Task" WHERE "endedAt" < ?', sqliteTime(at - RETENTION_S * 1000));
const allTasks = (dbFile: string) => countRows(dbFile, 'SELECT COUNT(*) AS n FROM "Task"');
/** The seeded tasks still there: all were created before the pass started, every echo task after. */
const seededLeft = (dbFile: string, passStart: number) => countRows(dbFile, 'SELECT COUNT(*) AS n FROM "Task" WHERE "createdAt" < ?', sqliteTime(passStart));

interface Pass {
  slices: number[];
  sendsPerSec: number;
  /** Pruning pass only: seconds until no old task was left, and how many went. */
  pruneSec?: number;
  pruned?: number;
}

async function echoSlices(url: string, slices: number | ((done: number) => boolean)): Promise<number[]> {
  const rates: number[] = [];
  const more = typeof slices === 'number' ? () => rates.length < slices : () => !slices(rates.length) && rates.length < MAX_SLICES;
  while (more()) {
    const run = await runLoad({ url: `${url}/a2a/echo`, body: sendBody('retention bench'), headers: A2A_HEADERS, expect: EXPECT, connections: 50, duration: SLICE_S });
    if (run.bad || run.errors) throw new Error(`retention: ${run.bad} bad answers, ${run.errors} errors`);
    rates.push(run.rps);
  }
  return rates;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export async function retentionScenario(ctx: BenchContext, tasks: number): Promise<ScenarioResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-retention-'));
  const seeded = path.join(dir, 'seeded.db');
  const started = Date.now();
  seed(seeded, tasks, ctx.log);
  const seedSec = (Date.now() - started) / 1000;
  const before = { old: oldTasks(seeded), all: allTasks(seeded), mb: fs.statSync(seeded).size / 2 ** 20 };
  ctx.log(`retention: seeded ${fmt(tasks)} tasks in ${fmt(seedSec, 1)} s (${fmt(before.mb)} MB), ${fmt(before.old)} ended over a day ago`);
  const copy = (name: string) => {
    const file = path.join(dir, name);
    fs.copyFileSync(seeded, file);
    return file;
  };
  const pruningDb = copy('pruning.db');
  const keepingDb = copy('keeping.db');
  fs.rmSync(seeded);
  try {
    const t0 = Date.now();
    const pruning = await ctx.start('switchboard', { dbFile: pruningDb, env: { SWITCHBOARD_TASK_RETENTION: String(RETENTION_S) } });
    let pass: Pass;
    let afterMb: number;
    try {
      let pruneSec: number | undefined;
      const slices = await echoSlices(pruning.url, () => {
        if (pruneSec === undefined && oldTasks(pruningDb, t0) === 0) pruneSec = (Date.now() - t0) / 1000;
        return pruneSec !== undefined;
      });
      pass = { slices, sendsPerSec: mean(slices), pruneSec, pruned: before.all - seededLeft(pruningDb, t0) };
      afterMb = fs.statSync(pruningDb).size / 2 ** 20;
    } finally {
      await pruning.stop();
    }
    ctx.log(`retention: pruned ${fmt(pass.pruned ?? 0)} tasks in ${fmt(pass.pruneSec ?? NaN, 1)} s under echo load: ${fmt(pass.sendsPerSec)} sends/s`);
    const keeping = await ctx.start('switchboard', { dbFile: keepingDb });
    let baseline: Pass;
    try {
      const slices = await echoSlices(keeping.url, pass.slices.length);
      baseline = { slices, sendsPerSec: mean(slices) };
    } finally {
      await keeping.stop();
    }
    ctx.log(`retention: without pruning ${fmt(baseline.sendsPerSec)} sends/s`);
    const ratio = pass.sendsPerSec / baseline.sendsPerSec;
    const prunedPerSec = pass.pruneSec ? (pass.pruned ?? 0) / pass.pruneSec : NaN;
    return {
      id: 'retention',
      title: `7. Retention: pruning ${fmt(before.old)} old tasks under echo load (${fmt(tasks)} stored)`,
      params: { tasks, retentionSeconds: RETENTION_S, sliceSeconds: SLICE_S, connections: 50 },
      data: { seedSec, before, afterMb, pruning: pass, without: baseline, ratio, prunedPerSec },
      table: [
        ['server', 'echo sends/s (50 conns)', 'per 5 s slice', 'pruned', 'pruning took'],
        ['pruning (SWITCHBOARD_TASK_RETENTION=86400)', fmt(pass.sendsPerSec), pass.slices.map((r) => fmt(r)).join(' '), fmt(pass.pruned ?? 0), `${fmt(pass.pruneSec ?? NaN, 1)} s (${fmt(prunedPerSec)} tasks/s)`],
        ['without (no retention)', fmt(baseline.sendsPerSec), baseline.slices.map((r) => fmt(r)).join(' '), '0', '—'],
      ],
      targets: [{ name: 'echo throughput while pruning ≥ 0.9× without', value: `${fmt(ratio, 2)}×`, met: ratio >= 0.9 }],
      notes: [
        `Seeded ${fmt(tasks)} tasks in ${fmt(seedSec, 1)} s; the file was ${fmt(before.mb)} MB before pruning and ${fmt(afterMb)} MB after (SQLite keeps the freed pages for reuse).`,
        'The pruning pass runs until nothing that ended over a day ago is left; the run without pruning then takes as many slices. One server at a time.',
      ],
    };
  } finally {
    if (!process.env.SWITCHBOARD_BENCH_KEEP_DB) fs.rmSync(dir, { recursive: true, force: true });
  }
}
