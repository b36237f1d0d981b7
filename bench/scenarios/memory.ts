/**
 * Scenario 2 — memory. A fresh server of each kind takes 100,000 blocking echo sends (two
 * halves of 50,000, 50 connections); resident memory is read at start (booted, idle), after
 * 50k and after 100k, and sampled every second for the peak. Switchboard keeps tasks in
 * SQLite; the reference keeps every task in its InMemoryTaskStore.
 */
import { A2A_HEADERS, sendBody } from '../lib/a2a';
import { fmt, type BenchContext, type ScenarioResult } from '../lib/context';
import { runLoad } from '../lib/load';
import type { ServerKind } from '../lib/servers';
import { persistedCounts } from '../lib/sqlite-probe';
import { V8_GROWTH_ENV, V8_GROWTH_LABEL } from '../lib/heap-variant';

/** Switchboard as shipped, then with V8's own heap growth (what the shipped bound saves). */
const VARIANTS: { name: string; kind: ServerKind; env?: Record<string, string> }[] = [
  { name: 'switchboard', kind: 'switchboard' },
  { name: `switchboard, ${V8_GROWTH_LABEL}`, kind: 'switchboard', env: V8_GROWTH_ENV },
  { name: 'ref-sdk', kind: 'ref-sdk' },
];
/** Issue 28's bound ("RSS < 200 MB after 100k tasks and flat"). */
const LIMIT_MB = 200;
/** "Flat": the second 50k may add at most this share of the RSS at 50k. */
const FLAT_GROWTH = 0.1;

interface MemoryRun {
  startMb: number;
  halfMb: number;
  endMb: number;
  peakMb: number;
  tasks: number;
  rps: number;
}

export async function memoryScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const total = ctx.quick ? 2_000 : 100_000;
  const half = total / 2;
  const runs: Record<string, MemoryRun> = {};
  let persisted: ReturnType<typeof persistedCounts> | undefined;
  for (const { name, kind, env } of VARIANTS) {
    const server = await ctx.start(kind, { env });
    try {
      await new Promise((r) => setTimeout(r, 1000));
      const run: MemoryRun = { startMb: server.rssMb(), halfMb: 0, endMb: 0, peakMb: 0, tasks: 0, rps: 0 };
      run.peakMb = run.startMb;
      const sample = () => (run.peakMb = Math.max(run.peakMb, server.rssMb()));
      let seconds = 0;
      for (const which of ['half', 'end'] as const) {
        const r = await runLoad({ url: `${server.url}/a2a/echo`, body: sendBody('hello from the benchmark'), headers: A2A_HEADERS, expect: 'TASK_STATE_COMPLETED', connections: 50, amount: half, onTick: sample });
        run.tasks += r.good;
        seconds += r.durationSec;
        if (which === 'half') run.halfMb = server.rssMb();
        else run.endMb = server.rssMb();
        sample();
        ctx.log(`memory ${name}: ${fmt(run.tasks)} tasks, RSS ${fmt(server.rssMb())} MB (${fmt(r.rps)}/s)`);
      }
      run.rps = run.tasks / seconds;
      runs[name] = run;
      if (name === 'switchboard') persisted = persistedCounts(server.dbFile!, 'echo');
    } finally {
      await server.stop();
    }
  }
  const sb = runs.switchboard;
  const growth = (sb.endMb - sb.halfMb) / sb.halfMb;
  const label = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(n));
  return {
    id: 'memory',
    title: `2. Memory over ${label(total)} echo tasks`,
    params: { tasks: total, connections: 50, limitMb: LIMIT_MB, flatGrowth: FLAT_GROWTH },
    data: { runs, persisted },
    table: [
      ['server', 'RSS start MB', `RSS @${label(half)} MB`, `RSS @${label(total)} MB`, 'peak MB', 'sends/s'],
      ...VARIANTS.map(({ name: k }) => [k, fmt(runs[k].startMb), fmt(runs[k].halfMb), fmt(runs[k].endMb), fmt(runs[k].peakMb), fmt(runs[k].rps)]),
    ],
    targets: [
      { name: `Switchboard RSS < ${LIMIT_MB} MB after ${label(total)} tasks (as shipped)`, value: `${fmt(sb.endMb)} MB`, met: sb.endMb < LIMIT_MB },
      { name: `Switchboard flat: ${label(half)}→${label(total)} adds ≤ ${FLAT_GROWTH * 100}%`, value: `${growth >= 0 ? '+' : ''}${fmt(growth * 100, 1)}%`, met: growth <= FLAT_GROWTH },
      { name: 'every task persisted', value: `${fmt(persisted?.completed ?? 0)} / ${fmt(sb.tasks)}`, met: persisted?.completed === sb.tasks },
    ],
    notes: [
      `RSS is the server process's resident set (VmRSS), read from /proc. ref-sdk grows by ${fmt(((runs['ref-sdk'].endMb - runs['ref-sdk'].startMb) / total) * 1000, 1)} KB per task (its InMemoryTaskStore keeps every task).`,
      `Switchboard keeps nothing per task in memory; what its RSS adds under load is garbage V8 has not collected yet. As shipped, the old generation may grow to 2× the live heap between full collections (SWITCHBOARD_HEAP_GROWTH_PERCENT=100) and the young generation is 2 × 4 MB (scripts/server-node-flags.json, as npm start runs it); with ${V8_GROWTH_LABEL} (=0) the same run ends at ${fmt(runs[VARIANTS[1].name].endMb)} MB (peak ${fmt(runs[VARIANTS[1].name].peakMb)}) and sends ${fmt(runs[VARIANTS[1].name].rps)}/s.`,
    ],
  };
}
