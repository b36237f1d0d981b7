/**
 * Cross-instance latency of a PostgreSQL cluster: N Switchboard instances on one database, per-task
 * streams on one instance following long `slow` tasks running on another (one event a second
 * each); latency = receive time − the event's commit time (`at`, same clock). First with the
 * instances otherwise idle, then under load: echo tasks at a steady pace (paced-load.ts) and
 * dashboard feeds on every instance (in a child process, feed-swarm.ts, so that they do not delay
 * the clock of the measured streams). Missed: a per-task stream with a seq gap or no end, or a
 * feed that did not see every completed task (the parsing feeds) or lacks a frame its instance
 * sent after the last feed opened (all feeds).
 *
 * Two shapes: `bench:pg --only cross` (two instances; the watched tasks and the load on A, the
 * streams on B) and the cluster (`npm run bench -- --only cluster`, `bench:pg --only cluster`):
 * N instances behind one round-robin TCP balancer (balancer.ts, its own process) that takes the
 * load, a connection per request, so each echo task goes to the next instance; watched task k
 * runs on instance k mod N and is followed on the next two instances (mod N, never its own).
 */
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fork, type ChildProcess } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { A2A_HEADERS, postJson, sendBody } from './a2a';
import { pacedLoad } from './paced-load';
import type { FeedGroup, FeedReport } from './feed-swarm';
import { cpuSecondsOf, type RunningServer } from './servers';
import { readSse } from './sse-client';
import { Histogram } from './stats';

const EXPECT = 'TASK_STATE_COMPLETED';
/** PostgreSQL requires one secret key for every instance (decision 210). */
export const BENCH_SECRET_KEY = 'bench-cluster-secret-key-shared-by-every-instance';
const WATCHED = 50;
const PARSING_FEEDS = 25;
const IDLE_SECONDS = 4;
/** After the feeds opened, before the loaded window. */
const SETTLE_MS = 2_000;

export interface ClusterOptions {
  instances: number;
  /** Through a round-robin balancer (each echo task to the next instance), or all load to the first instance. */
  balanced: boolean;
  /** Echo tasks a second (each is two task changes: created and working, completed). */
  echoRate: number;
  seconds: number;
  /** Dashboard feeds, spread evenly over the instances. */
  feeds: number;
  /** The feed process's CPU priority (they stand for browsers on other machines). */
  feedsNice: number;
  /** Starts one instance on the database. */
  start(env: Record<string, string>): Promise<RunningServer>;
  /** The PostgreSQL server's postmaster (its CPU is counted). */
  pgPid(): number;
  databaseUrl: string;
}

export interface ClusterResult {
  instances: number;
  streams: number;
  idle: Histogram;
  loaded: Histogram;
  load: { good: number; bad: number; skipped: number; rps: number; p50: number; p99: number };
  /** Task changes (a task's write: its events share their `at`) and events committed per second during the load. */
  changesPerSecond: number;
  eventsPerSecond: number;
  /** Cores each party used during the load. */
  cores: Record<string, number>;
  driverLoopDelayP99Ms: number;
  /** The balancer's connections (= echo requests) per instance. */
  perInstance?: number[];
  streamProblems: number;
  feedsShort: number;
  feedCount: number;
  completed: number;
  loadAverage: number;
}

/**
 * The cluster's shape from its command-line values: `changes` task changes a second = the
 * watched tasks' one event a second each + two changes per echo task through the balancer.
 */
export function clusterOptions(raw: { instances: string; changes: string; feeds: string }): Pick<ClusterOptions, 'instances' | 'balanced' | 'echoRate' | 'feeds'> & { changes: number } {
  const instances = Number(raw.instances);
  const changes = Number(raw.changes);
  const feeds = Number(raw.feeds);
  if (!Number.isInteger(instances) || instances < 2 || instances > 10) throw new Error('--instances: a whole number from 2 to 10');
  if (!Number.isInteger(changes) || changes <= WATCHED + 1) throw new Error(`--changes: a whole number above ${WATCHED + 1} (the watched tasks make ${WATCHED} a second)`);
  if (!Number.isInteger(feeds) || feeds < 0) throw new Error('--feeds: a whole number');
  return { instances, balanced: true, echoRate: (changes - WATCHED) / 2, feeds, changes };
}

/** A forked helper module that answers one IPC message with `key`. */
function child(file: string): { proc: ChildProcess; reply<T>(key: string): Promise<T> } {
  const proc = fork(path.resolve(import.meta.dirname, file), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const reply = <T>(key: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (m: Record<string, unknown>) => {
        if (!(key in m)) return;
        proc.off('message', onMessage);
        resolve(m[key] as T);
      };
      proc.on('message', onMessage);
      proc.once('exit', (code) => reject(new Error(`${file} exited (${code})`)));
    });
  return { proc, reply };
}

/** Feed subscribers in a child process: resolves once all are open; `finish` returns their reports. */
async function feedSwarm(groups: FeedGroup[], nice: number): Promise<{ finish: () => Promise<FeedReport[]>; cpuSeconds: () => number }> {
  const { proc, reply } = child('feed-swarm.ts');
  if (nice) os.setPriority(proc.pid!, nice);
  const opened = reply<boolean>('open');
  proc.send({ feeds: groups });
  await opened;
  return {
    cpuSeconds: () => cpuSecondsOf(proc.pid!),
    finish: async () => {
      const report = reply<FeedReport[]>('report');
      proc.send({ finish: true });
      return report;
    },
  };
}

/** The round-robin balancer in front of `servers`; `finish` stops it and returns its connections per instance. */
async function balancer(servers: RunningServer[]): Promise<{ url: string; cpuSeconds: () => number; finish: () => Promise<number[]> }> {
  const { proc, reply } = child('balancer.ts');
  const listening = reply<number>('port');
  proc.send({ backends: servers.map((s) => new URL(s.url).host) });
  const port = await listening;
  return {
    url: `http://127.0.0.1:${port}`,
    cpuSeconds: () => cpuSecondsOf(proc.pid!),
    finish: async () => {
      const counts = reply<number[]>('connections');
      proc.send({ finish: true });
      return counts;
    },
  };
}

/** Per-task streams, two on each task's followers: latency into whichever histogram `sink()` names at the time. */
function followTasks(watched: { id: string; followers: RunningServer[] }[], agent: http.Agent, signal: AbortSignal, sink: () => Histogram) {
  let problems = 0;
  const done = watched.flatMap(({ id, followers }) =>
    [0, 1].map((k) => {
      let last = -1;
      let ended = false;
      return readSse({
        url: `${followers[k % followers.length].url}/api/tasks/${id}/events`,
        agent,
        signal,
        onFrame: (frame) => {
          if (frame.event === 'snapshot') last = (JSON.parse(frame.data) as { task: { lastSeq: number } }).task.lastSeq;
          else if (frame.event === 'task-event') {
            const e = JSON.parse(frame.data) as { seq: number; at: string };
            if (e.seq !== last + 1) problems++;
            last = e.seq;
            sink().add(frame.receivedAt - Date.parse(e.at));
          } else if (frame.event === 'end') {
            ended = true;
            return false;
          }
        },
      }).then(() => {
        if (!ended) problems++;
      });
    }),
  );
  return { done: Promise.all(done), count: done.length, problems: () => problems };
}

export const dist = (h: Histogram) => `p50 ${h.percentile(50)} ms, p99 ${h.percentile(99)} ms, max ${h.max} ms over ${h.count} events`;

/** Which instance runs watched task k, and where it is followed. */
function placement(servers: RunningServer[], balanced: boolean, k: number): { owner: RunningServer; followers: RunningServer[] } {
  if (!balanced) return { owner: servers[0], followers: servers.slice(1) };
  const n = servers.length;
  return { owner: servers[k % n], followers: [servers[(k + 1) % n], servers[(k + 2) % n]].filter((s) => s !== servers[k % n]) };
}

async function startWatched(servers: RunningServer[], balanced: boolean, workSeconds: number) {
  const text = `work ${workSeconds}s chunks ${workSeconds} size 200`;
  const watched: { id: string; followers: RunningServer[] }[] = [];
  for (let k = 0; k < WATCHED; k++) {
    const { owner, followers } = placement(servers, balanced, k);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] }, configuration: { returnImmediately: true } } });
    watched.push({ id: ((await postJson(`${owner.url}/a2a/slow`, body, A2A_HEADERS)).result as { task: { id: string } }).task.id, followers });
  }
  return watched;
}

/** What the load committed: one change is one write of a task (its events share their `at`); the watched tasks' chunks count too. */
async function committed(databaseUrl: string, from: number, wallSeconds: number) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const completed = (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM "Task" WHERE "state" = \'completed\'')).rows[0].n;
    const c = (
      await client.query<{ changes: number; events: number }>(
        'SELECT count(DISTINCT ("taskId", "at"))::int AS changes, count(*)::int AS events FROM "TaskEvent" WHERE "at" >= $1 AND "at" < $2',
        [new Date(from), new Date(from + wallSeconds * 1000)],
      )
    ).rows[0];
    return { completed, changesPerSecond: Math.round(c.changes / wallSeconds), eventsPerSecond: Math.round(c.events / wallSeconds) };
  } finally {
    await client.end();
  }
}

export async function runCluster(o: ClusterOptions): Promise<ClusterResult> {
  const names = 'abcdefghij';
  const servers: RunningServer[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const idle = new Histogram();
  const loaded = new Histogram();
  let sink = idle;
  let lb: Awaited<ReturnType<typeof balancer>> | undefined;
  try {
    for (let i = 0; i < o.instances; i++) servers.push(await o.start({ DATABASE_URL: o.databaseUrl, SWITCHBOARD_INSTANCE_ID: names[i] ?? `i${i}` }));
    if (o.balanced) lb = await balancer(servers);
    // Long enough for the idle window, opening the feeds and the load, with a margin.
    const watched = await startWatched(servers, o.balanced, IDLE_SECONDS + o.seconds + 10);
    const streams = followTasks(watched, agent, stop.signal, () => sink);
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    // Every feed is open before the load starts, so a parsing feed must see every task complete.
    const perFeedGroup = Math.round(o.feeds / servers.length);
    const feeds = await feedSwarm(servers.map((s) => ({ url: `${s.url}/api/feed`, count: perFeedGroup, parsing: Math.min(PARSING_FEEDS, perFeedGroup) })), o.feedsNice);
    // Opening hundreds of feeds at once is a connection storm the instances digest for about
    // half a second: the window measures the steady state after it (events in between go to
    // neither histogram).
    sink = new Histogram();
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const cpuOf = () => ({ ...Object.fromEntries(servers.map((s, i) => [names[i] ?? `i${i}`, s.cpuSeconds()])), PostgreSQL: cpuSecondsOf(o.pgPid()), feeds: feeds.cpuSeconds(), ...(lb ? { balancer: lb.cpuSeconds() } : {}) });
    const cpu0 = { bench: process.cpuUsage(), parties: cpuOf(), at: Date.now() };
    sink = loaded;
    const load = await pacedLoad({ url: `${lb?.url ?? servers[0].url}/a2a/echo`, body: sendBody('fan-out'), headers: A2A_HEADERS, expect: EXPECT, rate: o.echoRate, seconds: o.seconds, connectionPerRequest: o.balanced });
    sink = new Histogram(); // the window ends with the load (reading /proc below blocks this event loop)
    loopDelay.disable();
    const wall = (Date.now() - cpu0.at) / 1000;
    const benchCpu = process.cpuUsage(cpu0.bench);
    const parties = cpuOf();
    const cores: Record<string, number> = Object.fromEntries(Object.entries(parties).map(([k, v]) => [k, Math.round(((v - (cpu0.parties as Record<string, number>)[k]) / wall) * 100) / 100]));
    cores.driver = Math.round(((benchCpu.user + benchCpu.system) / 1e6 / wall) * 100) / 100;
    await Promise.race([streams.done, new Promise((r) => setTimeout(r, 60_000))]);
    await new Promise((r) => setTimeout(r, 1_000)); // the feeds' last coalesced frame
    const reports = await feeds.finish();
    const perInstance = await lb?.finish();
    const c = await committed(o.databaseUrl, cpu0.at, wall);
    return {
      instances: o.instances,
      streams: streams.count,
      idle,
      loaded,
      load: { good: load.good, bad: load.bad, skipped: load.skipped, rps: Math.round(load.rps), p50: load.latency.percentile(50), p99: load.latency.percentile(99) },
      changesPerSecond: c.changesPerSecond,
      eventsPerSecond: c.eventsPerSecond,
      cores,
      driverLoopDelayP99Ms: Math.round(loopDelay.percentile(99) / 1e5) / 10,
      perInstance,
      streamProblems: streams.problems(),
      feedsShort: reports.filter((f) => (f.parsing && f.completed < c.completed) || !f.whole).length,
      feedCount: reports.length,
      completed: c.completed,
      loadAverage: os.loadavg()[0],
    };
  } finally {
    stop.abort();
    agent.destroy();
    await Promise.all(servers.map((s) => s.stop()));
  }
}

/** One line of the result, as bench:pg prints it. */
export function clusterLine(r: ClusterResult, label: string, echoRate: number, feedsNice: number): string {
  const cores = Object.entries(r.cores).map(([k, v]) => `${k === 'feeds' ? `the feed process (nice ${feedsNice})` : k} ${v.toFixed(2)}`).join(', ');
  return (
    `${r.instances} instances (${label}, load average ${r.loadAverage.toFixed(2)}): ${r.streams} per-task streams following ${WATCHED} slow tasks on another instance; cross-instance latency (commit → frame), ` +
    `idle: ${dist(r.idle)}; loaded with ${r.load.good} echo tasks at ${r.load.rps}/s${r.perInstance ? ` through the balancer (per instance ${r.perInstance.join(' / ')})` : ' on A'} ` +
    `(asked ${echoRate}/s, ${r.changesPerSecond} task changes/s committed (${r.eventsPerSecond} events/s), due → answer p50 ${r.load.p50} ms, p99 ${r.load.p99} ms, ${r.load.bad} bad, ${r.load.skipped} not sent) ` +
    `and ${r.feedCount} feeds: ${dist(r.loaded)}; cores used: ${cores} (driver event-loop delay p99 ${r.driverLoopDelayP99Ms} ms); ` +
    `missed: ${r.streamProblems} stream problems, ${r.feedsShort} feeds short of ${r.completed} completed tasks`
  );
}
