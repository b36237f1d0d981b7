/**
 * The detach burst shared by scenario 6 (SQLite, bench/scenarios/detach.ts) and
 * `npm run bench:pg -- --only detach` (PostgreSQL): N blocking SendMessage calls to `slow` at
 * once against a server with a 1 s response window. Measured: every answer (WORKING + detached),
 * the database work while the tasks wait (SWITCHBOARD_QUERY_LOG=1 / GET /api/debug/queries: must
 * be 0), `GET /api/health` latency from a separate process during the burst and during the wait,
 * the server's RSS every second, and at the end, read from the database, that every task
 * completed with its artifact.
 */
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { A2A_HEADERS } from './a2a';
import { countsBetween, queryCounts, type QueryCounts } from './query-counts';
import { percentile, round } from './stats';
import type { HealthSample } from './health-probe';

/** The most tasks one burst may send (the figure; the client's sockets are the bound). */
export const MAX_DETACHED = 10_000;

interface SendOutcome {
  taskId?: string;
  state?: string;
  detached: boolean;
  ms: number;
  error?: string;
}

export interface DetachBurstOptions {
  url: string;
  total: number;
  /** The slow agent's work per task; must outlast the burst and the quiet window. */
  workSeconds: number;
  /** One number from the server's database (`SELECT COUNT(*) …`). */
  count(sql: string): Promise<number>;
  rssMb(): number;
  log(message: string): void;
}

export interface LatencySummary {
  n: number;
  p50: number;
  p99: number;
  max: number;
  failed: number;
}

export interface DetachBurstResult {
  total: number;
  workSeconds: number;
  detached: number;
  errors: number;
  firstError?: string;
  completed: number;
  failed: number;
  lost: number;
  detachEvents: number;
  withArtifact: number;
  waitingQueries: QueryCounts;
  quietWindowMs: number;
  answerMs: { p50: number; p99: number; max: number };
  /** GET /api/health from another process while the sends were being answered, and while the tasks waited. */
  healthBurst: LatencySummary;
  healthWaiting: LatencySummary;
  rss: { startMb: number; peakMb: number; waitingMb: number; doneMb: number; everySecondMb: number[] };
  lastAnswerSec: number;
  allDoneSec: number;
  /** The machine's 1-minute load average at the start and at the end. */
  loadAverage: [number, number];
}

/**
 * The sends share this many keep-alive connections, each carrying one blocking send at a time
 * (answered after the 1 s window): under the 511 pending connections Node's `listen()` queues,
 * so no connection attempt is dropped while the server's event loop is busy (10,000 connects at
 * once overflowed it: SYN retries of seconds, then ECONNRESET for two thirds of the sends).
 */
export const BURST_CONNECTIONS = 500;

/** Work long enough to outlast the burst (about 1.2 s per 500 tasks) and leave a quiet window of seconds. */
export function workSecondsFor(total: number, quick: boolean): number {
  return quick ? 4 : 10 + 5 * Math.ceil(total / 1000);
}

/**
 * One blocking send; a connection the server reset before answering (its keep-alive timeout
 * racing our next request) is sent again with the same messageId, which the hub answers with
 * the task the first one created, if it did (idempotent sends, decision 166): never a second task.
 */
async function send(url: string, agent: http.Agent, text: string): Promise<SendOutcome> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] } } });
  const started = performance.now();
  let outcome = await sendOnce(url, agent, body, started);
  for (let retry = 0; retry < 3 && outcome.error === 'read ECONNRESET'; retry++) outcome = await sendOnce(url, agent, body, started);
  return outcome;
}

function sendOnce(url: string, agent: http.Agent, body: string, started: number): Promise<SendOutcome> {
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

export function summarise(samples: HealthSample[], from: number, to: number): LatencySummary {
  const inside = samples.filter((s) => s.at >= from && s.at <= to);
  const ms = inside.map((s) => s.ms);
  return { n: inside.length, p50: round(percentile(ms, 50), 1), p99: round(percentile(ms, 99), 1), max: round(ms.length ? Math.max(...ms) : NaN, 1), failed: inside.filter((s) => !s.ok).length };
}

/** The health prober in its own process; `finish()` stops it and hands back every sample. */
function startHealthProbe(url: string): { finish(): Promise<HealthSample[]>; kill(): void } {
  const child = fork(path.resolve('bench/lib/health-probe.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const samples = new Promise<HealthSample[]>((resolve, reject) => {
    child.once('message', (msg: { samples: HealthSample[] }) => resolve(msg.samples));
    child.once('exit', (code) => reject(new Error(`health probe exited (${code}) without its samples`)));
  });
  child.send({ url, pauseMs: 20 });
  return {
    finish() {
      child.send({ finish: true });
      return samples;
    },
    kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

function sampleRss(rssMb: () => number): { stop(): number[] } {
  const every: number[] = [rssMb()];
  const timer = setInterval(() => every.push(rssMb()), 1000);
  return {
    stop() {
      clearInterval(timer);
      return every;
    },
  };
}

export async function runDetachBurst(opts: DetachBurstOptions): Promise<DetachBurstResult> {
  const { url, total, workSeconds } = opts;
  const load0 = os.loadavg()[0];
  // A send and a health call first: a cold server loads its A2A route and the engine on the
  // first send (module compilation, seconds of event loop under load), which measured the
  // server's start as the burst's health p99, not the burst.
  await send(`${url}/a2a/echo`, new http.Agent(), 'warm-up');
  await fetch(`${url}/api/health`);
  const health = startHealthProbe(url);
  const rssSamples = sampleRss(opts.rssMb);
  const agent = new http.Agent({ keepAlive: true, maxSockets: BURST_CONNECTIONS });
  try {
    await sleep(1000); // the probe's baseline before the burst
    const startedAt = Date.now();
    opts.log(`detach: ${total} blocking sends over ${Math.min(total, BURST_CONNECTIONS)} connections, ${workSeconds} s of work, 1 s window (load ${load0.toFixed(2)})`);
    const outcomes = await Promise.all(Array.from({ length: total }, () => send(`${url}/a2a/slow`, agent, `work ${workSeconds}s chunks 1 size 64`)));
    const lastDetach = Date.now();
    const detached = outcomes.filter((o) => o.detached && o.state === 'TASK_STATE_WORKING');
    const errors = outcomes.filter((o) => o.error);
    opts.log(`detach: ${detached.length}/${total} detached, last answer after ${((lastDetach - startedAt) / 1000).toFixed(2)} s, RSS ${Math.round(opts.rssMb())} MB`);

    // The quiet window: every call has answered, no task can have finished its work yet.
    const firstDone = startedAt + workSeconds * 1000;
    await sleep(300);
    const before = await queryCounts(url);
    const windowStart = Date.now();
    await sleep(firstDone - 400 - Date.now());
    const after = await queryCounts(url);
    const windowEnd = Date.now();
    const waiting = countsBetween(before, after);
    const waitingMb = opts.rssMb();
    opts.log(`detach: ${((windowEnd - windowStart) / 1000).toFixed(1)} s quiet window with ${total} tasks waiting: ${JSON.stringify(waiting)}`);

    // Then every task must complete on its own: read the database, not the API.
    const slowTasks = 'FROM "Task" WHERE "agentSlug" = \'slow\'';
    const deadline = Date.now() + (workSeconds + 120) * 1000;
    let completed = 0;
    while (Date.now() < deadline) {
      completed = await opts.count(`SELECT COUNT(*) AS n ${slowTasks} AND "state" = 'completed'`);
      if (completed >= total) break;
      await sleep(500);
    }
    const allDone = Date.now();
    const failed = await opts.count(`SELECT COUNT(*) AS n ${slowTasks} AND "state" IN ('failed','canceled','rejected')`);
    const detachEvents = await opts.count('SELECT COUNT(*) AS n FROM "TaskEvent" e JOIN "Task" t ON t."id" = e."taskId" WHERE t."agentSlug" = \'slow\' AND e."type" = \'detached\'');
    const withArtifact = await opts.count('SELECT COUNT(DISTINCT a."taskId") AS n FROM "Artifact" a JOIN "Task" t ON t."id" = a."taskId" WHERE t."agentSlug" = \'slow\' AND t."state" = \'completed\'');
    const samples = await health.finish();
    const everySecondMb = rssSamples.stop();
    const latency = outcomes.map((o) => o.ms);
    opts.log(`detach: ${completed}/${total} completed ${((allDone - startedAt) / 1000).toFixed(1)} s after the first send; ${failed} failed, ${total - completed - failed} lost`);
    return {
      total,
      workSeconds,
      detached: detached.length,
      errors: errors.length,
      firstError: errors[0]?.error,
      completed,
      failed,
      lost: total - completed - failed,
      detachEvents,
      withArtifact,
      waitingQueries: waiting,
      quietWindowMs: windowEnd - windowStart,
      answerMs: { p50: percentile(latency, 50), p99: percentile(latency, 99), max: Math.max(...latency) },
      healthBurst: summarise(samples, startedAt, lastDetach),
      healthWaiting: summarise(samples, windowStart, windowEnd),
      rss: { startMb: everySecondMb[0], peakMb: Math.max(...everySecondMb), waitingMb: round(waitingMb), doneMb: round(opts.rssMb()), everySecondMb: everySecondMb.map((m) => round(m)) },
      lastAnswerSec: (lastDetach - startedAt) / 1000,
      allDoneSec: (allDone - startedAt) / 1000,
      loadAverage: [round(load0, 2), round(os.loadavg()[0], 2)],
    };
  } finally {
    rssSamples.stop();
    health.kill();
    agent.destroy();
  }
}
