/**
 * Scenario 6 — detach at scale. 1,000 blocking SendMessage calls to the `slow` agent at once,
 * with a 1 s response window (SWITCHBOARD_RESPONSE_WINDOW=1) and 10 s of work each: every call
 * must come back WORKING + detached after ~1 s, every task must then complete on its own, and
 * none may be lost. While they wait (after the last detach, before the first can finish) the
 * server's database work is counted through SWITCHBOARD_QUERY_LOG=1 / GET /api/debug/queries:
 * the waiters are in-process timers and hub listeners, so the count must be zero — no polling.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { A2A_HEADERS } from '../lib/a2a';
import { fmt, type BenchContext, type ScenarioResult } from '../lib/context';
import { countRows } from '../lib/sqlite-probe';
import { percentile, round } from '../lib/stats';


interface QueryCounts {
  prisma: number;
  reads: number;
  writes: number;
  commits: number;
}

interface SendOutcome {
  taskId?: string;
  state?: string;
  detached: boolean;
  ms: number;
  error?: string;
}

function send(url: string, agent: http.Agent, text: string): Promise<SendOutcome> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] } } });
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'POST', agent, headers: { ...A2A_HEADERS, 'content-length': Buffer.byteLength(body) } }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (data += c));
      res.on('end', () => {
        const ms = performance.now() - started;
        try {
          const task = (JSON.parse(data) as { result?: { task?: { id: string; status: { state: string }; metadata?: { switchboard?: { detached?: boolean } } } } }).result?.task;
          resolve({ taskId: task?.id, state: task?.status.state, detached: task?.metadata?.switchboard?.detached === true, ms, error: task ? undefined : data.slice(0, 200) });
        } catch {
          resolve({ detached: false, ms, error: `${res.statusCode}: ${data.slice(0, 200)}` });
        }
      });
    });
    req.on('error', (err) => resolve({ detached: false, ms: performance.now() - started, error: err.message }));
    req.end(body);
  });
}

async function counts(url: string): Promise<QueryCounts> {
  const res = await fetch(`${url}/api/debug/queries`);
  if (!res.ok) throw new Error(`GET /api/debug/queries: HTTP ${res.status} (is SWITCHBOARD_QUERY_LOG=1 honoured?)`);
  return (await res.json()) as QueryCounts;
}

const delta = (a: QueryCounts, b: QueryCounts): QueryCounts => ({ prisma: b.prisma - a.prisma, reads: b.reads - a.reads, writes: b.writes - a.writes, commits: b.commits - a.commits });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

export async function detachScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const total = ctx.quick ? 100 : 1000;
  const WORK_SECONDS = ctx.quick ? 4 : 10;
  const server = await ctx.start('switchboard', { env: { SWITCHBOARD_RESPONSE_WINDOW: '1', SWITCHBOARD_QUERY_LOG: '1' } });
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  try {
    const startedAt = Date.now();
    ctx.log(`detach: ${total} concurrent blocking sends, ${WORK_SECONDS} s of work, 1 s window`);
    const outcomes = await Promise.all(Array.from({ length: total }, () => send(`${server.url}/a2a/slow`, agent, `work ${WORK_SECONDS}s chunks 1 size 64`)));
    const lastDetach = Date.now();
    const detached = outcomes.filter((o) => o.detached && o.state === 'TASK_STATE_WORKING');
    const errors = outcomes.filter((o) => o.error);
    ctx.log(`detach: ${detached.length}/${total} detached, last answer after ${fmt((lastDetach - startedAt) / 1000, 2)} s, RSS ${fmt(server.rssMb())} MB`);

    // The quiet window: every call has answered, no task can have finished its work yet.
    const firstDone = startedAt + WORK_SECONDS * 1000;
    await sleep(300);
    const before = await counts(server.url);
    const windowStart = Date.now();
    await sleep(firstDone - 400 - Date.now());
    const after = await counts(server.url);
    const windowMs = Date.now() - windowStart;
    const waiting = delta(before, after);
    const rssWaiting = server.rssMb();
    ctx.log(`detach: ${fmt(windowMs / 1000, 1)} s quiet window with ${total} tasks waiting: ${JSON.stringify(waiting)}`);

    // Then every task must complete on its own: read the database, not the API.
    const deadline = Date.now() + (WORK_SECONDS + 60) * 1000;
    let completed = 0;
    while (Date.now() < deadline) {
      completed = countRows(server.dbFile!, `SELECT COUNT(*) AS n FROM "Task" WHERE "agentSlug" = 'slow' AND "state" = 'completed'`);
      if (completed >= total) break;
      await sleep(250);
    }
    const allDone = Date.now();
    const failed = countRows(server.dbFile!, `SELECT COUNT(*) AS n FROM "Task" WHERE "agentSlug" = 'slow' AND "state" IN ('failed','canceled','rejected')`);
    const detachEvents = countRows(server.dbFile!, `SELECT COUNT(*) AS n FROM "TaskEvent" e JOIN "Task" t ON t."id" = e."taskId" WHERE t."agentSlug" = 'slow' AND e."type" = 'detached'`);
    const withArtifact = countRows(server.dbFile!, `SELECT COUNT(DISTINCT a."taskId") AS n FROM "Artifact" a JOIN "Task" t ON t."id" = a."taskId" WHERE t."agentSlug" = 'slow' AND t."state" = 'completed'`);
    const lost = total - completed - failed;
    const latency = outcomes.map((o) => o.ms);
    const quiet = waiting.prisma + waiting.reads + waiting.writes + waiting.commits;
    ctx.log(`detach: ${completed}/${total} completed ${fmt((allDone - startedAt) / 1000, 1)} s after the first send; ${failed} failed, ${lost} lost`);
    return {
      id: 'detach',
      title: `6. Detach at scale (${fmt(total)} concurrent slow tasks, 1 s window)`,
      params: { tasks: total, workSeconds: WORK_SECONDS, windowSeconds: 1 },
      data: { detached: detached.length, errors: errors.length, firstError: errors[0]?.error, completed, failed, lost, detachEvents, withArtifact, waitingQueries: waiting, quietWindowMs: windowMs, answerMs: { p50: percentile(latency, 50), p99: percentile(latency, 99), max: Math.max(...latency) }, rssWaitingMb: round(rssWaiting), lastAnswerSec: (lastDetach - startedAt) / 1000, allDoneSec: (allDone - startedAt) / 1000 },
      table: [
        ['detached answers', 'answer time p50 / p99 / max', 'completed', 'failed', 'lost', 'queries while waiting (prisma / reads / writes / commits)', 'quiet window', 'RSS while waiting'],
        [
          `${fmt(detached.length)}/${fmt(total)}`,
          `${fmt(percentile(latency, 50))} / ${fmt(percentile(latency, 99))} / ${fmt(Math.max(...latency))} ms`,
          fmt(completed),
          fmt(failed),
          fmt(lost),
          `${waiting.prisma} / ${waiting.reads} / ${waiting.writes} / ${waiting.commits}`,
          `${fmt(windowMs / 1000, 1)} s`,
          `${fmt(rssWaiting)} MB`,
        ],
      ],
      targets: [
        { name: 'all detach (WORKING + detached, one detached event each)', value: `${detached.length}/${total}, ${detachEvents} events`, met: detached.length === total && detachEvents === total },
        { name: 'all complete, 0 lost (with their artifact)', value: `${completed} completed, ${withArtifact} with artifact, ${failed} failed, ${lost} lost`, met: completed === total && withArtifact === total && lost === 0 },
        { name: 'no polling: 0 queries while the tasks wait', value: `${quiet} in ${fmt(windowMs / 1000, 1)} s`, met: quiet === 0 && windowMs >= 1000 },
      ],
      notes: [
        `The waiting window runs from 0.3 s after the last answer to 0.4 s before the first task can finish its ${WORK_SECONDS} s of work; counts come from SWITCHBOARD_QUERY_LOG=1 (Prisma statements at the driver adapter, hot-path reads, queued writes, commits).`,
      ],
    };
  } finally {
    agent.destroy();
    await server.stop();
  }
}
