/**
 * Scenario 6 — detach at scale. `--detached N` (default 10,000; quick 100) blocking SendMessage
 * calls to the `slow` agent at once, with a 1 s response window (SWITCHBOARD_RESPONSE_WINDOW=1)
 * and tens of seconds of work each: every call must come back WORKING + detached, every task
 * must then complete on its own with its artifact, none may be lost, the server must do no
 * database work while they wait (no polling), and `GET /api/health`, probed from another
 * process, must stay fast during the burst. The burst itself: bench/lib/detach-burst.ts.
 */
import { fmt, type BenchContext, type ScenarioResult } from '../lib/context';
import { runDetachBurst, workSecondsFor, type DetachBurstResult } from '../lib/detach-burst';
import { countRows } from '../lib/sqlite-probe';

/** The bound on /api/health while thousands of sends are answered. */
export const HEALTH_P99_TARGET_MS = 50;

export async function detachScenario(ctx: BenchContext, detachedTasks?: number): Promise<ScenarioResult> {
  const total = detachedTasks ?? (ctx.quick ? 100 : 10_000);
  const server = await ctx.start('switchboard', { env: { SWITCHBOARD_RESPONSE_WINDOW: '1', SWITCHBOARD_QUERY_LOG: '1' } });
  try {
    const r = await runDetachBurst({
      url: server.url,
      total,
      workSeconds: workSecondsFor(total, ctx.quick),
      count: async (sql) => countRows(server.dbFile!, sql),
      rssMb: () => server.rssMb(),
      log: ctx.log,
    });
    return detachReport(r, 'SQLite');
  } finally {
    await server.stop();
  }
}

/** The table, targets and notes of one burst (PostgreSQL prints the same lines). */
export function detachReport(r: DetachBurstResult, store: string): ScenarioResult {
  const quiet = r.waitingQueries.prisma + r.waitingQueries.reads + r.waitingQueries.writes + r.waitingQueries.commits;
  const { healthBurst: hb, healthWaiting: hw, rss } = r;
  return {
    id: 'detach',
    title: `6. Detach at scale (${fmt(r.total)} concurrent slow tasks, 1 s window, ${store})`,
    params: { tasks: r.total, workSeconds: r.workSeconds, windowSeconds: 1, store },
    data: { ...r },
    table: [
      ['detached answers', 'answer time p50 / p99 / max', 'completed', 'failed', 'lost', 'queries while waiting (prisma / reads / writes / commits)', 'quiet window', '/api/health during the burst p50 / p99 / max', 'RSS start / peak / waiting / done'],
      [
        `${fmt(r.detached)}/${fmt(r.total)}`,
        `${fmt(r.answerMs.p50)} / ${fmt(r.answerMs.p99)} / ${fmt(r.answerMs.max)} ms`,
        fmt(r.completed),
        fmt(r.failed),
        fmt(r.lost),
        `${r.waitingQueries.prisma} / ${r.waitingQueries.reads} / ${r.waitingQueries.writes} / ${r.waitingQueries.commits}`,
        `${fmt(r.quietWindowMs / 1000, 1)} s`,
        `${fmt(hb.p50, 1)} / ${fmt(hb.p99, 1)} / ${fmt(hb.max, 1)} ms (${fmt(hb.n)} probes)`,
        `${fmt(rss.startMb)} / ${fmt(rss.peakMb)} / ${fmt(rss.waitingMb)} / ${fmt(rss.doneMb)} MB`,
      ],
    ],
    targets: [
      { name: 'all detach (WORKING + detached, one detached event each)', value: `${r.detached}/${r.total}, ${r.detachEvents} events`, met: r.detached === r.total && r.detachEvents === r.total },
      { name: 'all complete, 0 lost (with their artifact)', value: `${r.completed} completed, ${r.withArtifact} with artifact, ${r.failed} failed, ${r.lost} lost`, met: r.completed === r.total && r.withArtifact === r.total && r.lost === 0 },
      { name: 'no polling: 0 queries while the tasks wait', value: `${quiet} in ${fmt(r.quietWindowMs / 1000, 1)} s`, met: quiet === 0 && r.quietWindowMs >= 1000 },
      { name: `/api/health p99 < ${HEALTH_P99_TARGET_MS} ms during the burst`, value: `${fmt(hb.p99, 1)} ms (${fmt(hb.n)} probes, ${hb.failed} failed)`, met: hb.n > 0 && hb.failed === 0 && hb.p99 < HEALTH_P99_TARGET_MS },
    ],
    notes: [
      `The burst lasted ${fmt(r.lastAnswerSec, 1)} s (first send to last answer); every task completed ${fmt(r.allDoneSec, 1)} s after the first send (${r.workSeconds} s of work each). Load average ${r.loadAverage[0]} at the start, ${r.loadAverage[1]} at the end (2 cores, shared).`,
      `/api/health is probed one request at a time (20 ms apart) from a separate process; while the tasks waited: p50 ${fmt(hw.p50, 1)} / p99 ${fmt(hw.p99, 1)} ms.`,
      'The waiting window runs from 0.3 s after the last answer to 0.4 s before the first task can finish its work; counts come from SWITCHBOARD_QUERY_LOG=1 (Prisma statements at the driver adapter, hot-path reads, queued writes, commits).',
      `RSS every second: ${rss.everySecondMb.join(' ')}.`,
    ],
  };
}
