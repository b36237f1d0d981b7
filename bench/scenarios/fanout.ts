/**
 * Scenario 4 — dashboard fan-out. 1,000 SSE subscribers: 500 on the global feed (GET /api/feed)
 * and 500 on per-task streams (GET /api/tasks/:id/events, 5 on each of 100 long `slow` tasks
 * that emit about one event a second), while a driver sends 100 echo tasks a second (each
 * changes state on commit: working, then completed).
 *
 * Checked per subscriber: a per-task stream gets its snapshot, then every event with seq
 * lastSeq+1, +2… with no gap, then `end`; a feed subscriber sees every task of the run reach
 * `completed`. Latency = receive time − the commit time the frame carries (`at` of an event,
 * `updatedAt` of a feed summary), on the same clock. Server RSS is sampled throughout.
 *
 * The load side shares the machine: parsing 500 copies of the feed (~50 MB/s of JSON) would
 * make the client, not the server, the bottleneck and inflate the latencies. So 50 feed
 * subscribers parse everything (latency, completeness); the others count the bytes of each
 * data frame, and must have received exactly what the parsing ones did — the feed sends every
 * subscriber the same frames.
 */
import http from 'node:http';
import { setMaxListeners } from 'node:events';
import { randomUUID } from 'node:crypto';
import { A2A_HEADERS, postJson, sendBody } from '../lib/a2a';
import { fmt, type BenchContext, type ScenarioResult } from '../lib/context';
import { runLoad } from '../lib/load';
import { readSse, type SseOutcome } from '../lib/sse-client';
import { countRows } from '../lib/sqlite-probe';
import { Histogram } from '../lib/stats';
import { foreignCores, markLoad } from '../lib/machine-load';
import { V8_GROWTH_ENV, V8_GROWTH_LABEL } from '../lib/heap-variant';

interface Shape {
  feedSubscribers: number;
  watchedTasks: number;
  perTask: number;
  tasksPerSec: number;
  loadSeconds: number;
  watchedWorkSeconds: number;
}

const FULL: Shape = { feedSubscribers: 500, watchedTasks: 100, perTask: 5, tasksPerSec: 100, loadSeconds: 20, watchedWorkSeconds: 20 };
const QUICK: Shape = { feedSubscribers: 50, watchedTasks: 10, perTask: 5, tasksPerSec: 10, loadSeconds: 4, watchedWorkSeconds: 6 };

interface StreamCheck {
  ok: boolean;
  events: number;
  problem?: string;
}

/** One per-task subscriber: snapshot, then gapless seqs, then `end`. */
function followTask(url: string, agent: http.Agent, latency: Histogram, signal: AbortSignal): Promise<StreamCheck> {
  let last = -1;
  let events = 0;
  let ended = false;
  let problem: string | undefined;
  return readSse({
    url,
    agent,
    signal,
    onFrame: (frame) => {
      if (frame.event === 'snapshot') {
        last = (JSON.parse(frame.data) as { task: { lastSeq: number } }).task.lastSeq;
      } else if (frame.event === 'task-event') {
        const e = JSON.parse(frame.data) as { seq: number; at: string };
        if (e.seq !== last + 1) problem ??= `seq ${e.seq} after ${last}`;
        last = e.seq;
        events++;
        latency.add(frame.receivedAt - Date.parse(e.at));
      } else if (frame.event === 'end') {
        ended = true;
        const end = JSON.parse(frame.data) as { lastSeq: number };
        if (end.lastSeq !== last) problem ??= `end at ${end.lastSeq}, last event ${last}`;
        return false;
      }
    },
  }).then((o: SseOutcome) => ({ ok: ended && !problem && o.status === 200, events, problem: problem ?? (ended ? undefined : `stream ended without end frame (${o.end}, ${o.status})`) }));
}

const PARSING_FEEDS = 50;

interface FeedSubscriber {
  completed: Set<string>;
  frames: number;
  bytes: number;
  open: Promise<void>;
  done: Promise<SseOutcome>;
}

function followFeed(url: string, agent: http.Agent, latency: Histogram | null, signal: AbortSignal): FeedSubscriber {
  const completed = new Set<string>();
  let opened!: () => void;
  const sub: FeedSubscriber = { completed, frames: 0, bytes: 0, open: new Promise<void>((r) => (opened = r)), done: Promise.resolve({} as SseOutcome) };
  sub.done = readSse({
    url,
    agent,
    signal,
    onOpen: () => opened(),
    onFrame: (frame) => {
      if (frame.event !== 'tasks') return;
      sub.frames++;
      sub.bytes += frame.data.length;
      if (!latency) return;
      for (const t of (JSON.parse(frame.data) as { tasks: { id: string; state: string; updatedAt: string }[] }).tasks) {
        latency.add(frame.receivedAt - Date.parse(t.updatedAt));
        if (t.state === 'completed') completed.add(t.id);
      }
    },
  });
  return sub;
}

interface FanoutPass {
  label: string;
  feeds: number;
  streams: number;
  echoTasks: number;
  echoRate: number;
  completed: number;
  tasks: number;
  taskLatency: Histogram;
  feedLatency: Histogram;
  streamEvents: number;
  streamProblems: StreamCheck[];
  feedMissing: number;
  feedBytes: number;
  rss: { idle: number; feedsConnected: number; peak: number; end: number; everySecond: number[] };
  watchText: string;
  /** Cores other processes used during the load. */
  foreign: number;
}

/** One measured pass on a fresh server. */
async function runPass(ctx: BenchContext, shape: Shape, label: string, env?: Record<string, string>): Promise<FanoutPass> {
  const server = await ctx.start('switchboard', { env });
  const rssIdle = server.rssMb();
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const stop = new AbortController();
  setMaxListeners(0, stop.signal); // one abort listener per subscriber, by design
  const feedLatency = new Histogram();
  const taskLatency = new Histogram();
  let peakRss = rssIdle;
  const rssSeries: number[] = [];
  const sampler = setInterval(() => {
    const rss = server.rssMb();
    peakRss = Math.max(peakRss, rss);
    rssSeries.push(Math.round(rss));
  }, 1000);
  try {
    const feeds = Array.from({ length: shape.feedSubscribers }, (_, i) => followFeed(`${server.url}/api/feed`, agent, i < PARSING_FEEDS ? feedLatency : null, stop.signal));
    await Promise.all(feeds.map((f) => f.open));
    const rssFeeds = server.rssMb();
    const watchText = `work ${shape.watchedWorkSeconds}s chunks ${shape.watchedWorkSeconds} size 200`;
    const watched: string[] = [];
    for (let i = 0; i < shape.watchedTasks; i++) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: watchText }] }, configuration: { returnImmediately: true } } });
      watched.push(((await postJson(`${server.url}/a2a/slow`, body, A2A_HEADERS)).result as { task: { id: string } }).task.id);
    }
    const streams = watched.flatMap((id) => Array.from({ length: shape.perTask }, () => followTask(`${server.url}/api/tasks/${id}/events`, agent, taskLatency, stop.signal)));
    ctx.log(`fanout (${label}): ${feeds.length} feed + ${streams.length} per-task subscribers; ${shape.tasksPerSec} echo tasks/s for ${shape.loadSeconds} s`);
    const mark = markLoad(server.cpuSeconds());
    const load = await runLoad({ url: `${server.url}/a2a/echo`, body: sendBody('fan-out'), headers: A2A_HEADERS, expect: 'TASK_STATE_COMPLETED', connections: 10, overallRate: shape.tasksPerSec, duration: shape.loadSeconds });
    const foreign = foreignCores(mark, server.cpuSeconds());
    const checks = await Promise.race([Promise.all(streams), new Promise<null>((r) => setTimeout(() => r(null), (shape.watchedWorkSeconds + 60) * 1000))]);
    await new Promise((r) => setTimeout(r, 1000)); // the feed's last coalesced frame
    const completed = countRows(server.dbFile!, 'SELECT COUNT(*) AS n FROM "Task" WHERE "state" = \'completed\'');
    const parsing = feeds.slice(0, PARSING_FEEDS);
    const feedBytes = parsing[0]?.bytes ?? 0;
    const pass: FanoutPass = {
      label,
      feeds: feeds.length,
      streams: streams.length,
      echoTasks: load.good,
      echoRate: load.rps,
      completed,
      tasks: countRows(server.dbFile!, 'SELECT COUNT(*) AS n FROM "Task"'),
      taskLatency,
      feedLatency,
      streamEvents: checks ? checks.reduce((n, c) => n + c.events, 0) : 0,
      streamProblems: checks ? checks.filter((c) => !c.ok) : streams.map(() => ({ ok: false, events: 0, problem: 'timed out' })),
      feedMissing: parsing.filter((f) => f.completed.size < completed).length + feeds.filter((f) => f.bytes !== feedBytes).length,
      feedBytes,
      rss: { idle: rssIdle, feedsConnected: rssFeeds, peak: peakRss, end: server.rssMb(), everySecond: rssSeries },
      watchText,
      foreign: Math.round(foreign * 100) / 100,
    };
    stop.abort();
    await Promise.allSettled(feeds.map((f) => f.done));
    ctx.log(`fanout (${label}): per-task p99 ${taskLatency.percentile(99)} ms, feed p99 ${feedLatency.percentile(99)} ms, RSS every second ${rssSeries.join(' ')}; missed: ${pass.feedMissing} feeds, ${pass.streamProblems.length} streams`);
    return pass;
  } finally {
    clearInterval(sampler);
    stop.abort();
    agent.destroy();
    await server.stop();
  }
}

const missed = (p: FanoutPass) => p.streamProblems.length + p.feedMissing;
const dist = (h: Histogram) => `${fmt(h.percentile(50))} / ${fmt(h.percentile(99))} / ${fmt(h.max)}`;

export async function fanoutScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const shape = ctx.quick ? QUICK : FULL;
  const shipped = await runPass(ctx, shape, 'as shipped');
  const v8Growth = await runPass(ctx, shape, V8_GROWTH_LABEL, V8_GROWTH_ENV);
  const passes = [shipped, v8Growth];
  const summary = (p: FanoutPass) => ({
    perTaskLatencyMs: { p50: p.taskLatency.percentile(50), p99: p.taskLatency.percentile(99), max: p.taskLatency.max, samples: p.taskLatency.count },
    feedLatencyMs: { p50: p.feedLatency.percentile(50), p99: p.feedLatency.percentile(99), max: p.feedLatency.max, samples: p.feedLatency.count },
    echoTasks: p.echoTasks,
    completed: p.completed,
    tasks: p.tasks,
    streamEvents: p.streamEvents,
    streamProblems: p.streamProblems.slice(0, 5),
    feedSubscribersMissingTasks: p.feedMissing,
    rssMb: p.rss,
    foreignCores: p.foreign,
  });
  const targetsFor = (p: FanoutPass) => [
    { name: 'per-task streams: event-to-client p99 < 100 ms', value: `${fmt(p.taskLatency.percentile(99))} ms`, met: p.taskLatency.percentile(99) < 100 },
    { name: 'global feed: change-to-client p99 < 100 ms', value: `${fmt(p.feedLatency.percentile(99))} ms`, met: p.feedLatency.percentile(99) < 100 },
    { name: 'server RSS < 400 MB', value: `${fmt(p.rss.peak)} MB peak (idle ${fmt(p.rss.idle)}, ${fmt(p.feeds)} feeds open ${fmt(p.rss.feedsConnected)})`, met: p.rss.peak < 400 },
    { name: 'no subscriber misses an event', value: `${p.streamProblems.length} streams, ${p.feedMissing} feeds`, met: missed(p) === 0 },
  ];
  return {
    id: 'fanout',
    title: `4. Dashboard fan-out (${fmt(shipped.feeds + shipped.streams)} SSE subscribers, ${shape.tasksPerSec} tasks/s)`,
    params: { ...shape, comparison: V8_GROWTH_ENV },
    data: { asShipped: summary(shipped), v8HeapGrowth: summary(v8Growth) },
    table: [
      ['server', 'subscribers', 'events delivered', 'latency p50 / p99 / max ms', 'missed', 'RSS idle / feeds open / peak MB'],
      ...passes.flatMap((p) => [
        [`switchboard, ${p.label}`, `${fmt(p.streams)} per-task streams`, fmt(p.streamEvents), dist(p.taskLatency), `${p.streamProblems.length}`, `${fmt(p.rss.idle)} / ${fmt(p.rss.feedsConnected)} / ${fmt(p.rss.peak)}`],
        ['', `${fmt(p.feeds)} global feeds`, `${fmt(p.feedLatency.count)} task summaries (parsing subscribers)`, dist(p.feedLatency), `${p.feedMissing}`, ''],
      ]),
    ],
    targets: targetsFor(shipped),
    notes: [
      `Per-task streams follow ${shape.watchedTasks} \`slow\` tasks ("${shipped.watchText}"); the driver ran ${fmt(shipped.echoRate, 1)} echo tasks/s (${fmt(shipped.echoTasks)} in all) at a fixed rate. ${fmt(shipped.tasks)} tasks in the database at the end.`,
      `Feed: the first ${PARSING_FEEDS} subscribers parse every frame and must have seen every completed task of the run in a \`completed\` summary (the feed coalesces a task's changes; the final state must arrive); every subscriber must have received the same data bytes (${fmt(shipped.feedBytes / 2 ** 20, 1)} MB each).`,
      `Other processes used ${fmt(shipped.foreign, 2)} cores during the as-shipped load and ${fmt(v8Growth.foreign, 2)} during the comparison (of 2; the bench's own subscribers and driver excluded).`,
      `RSS every second, as shipped: ${shipped.rss.everySecond.join(' ')}; with ${V8_GROWTH_LABEL} (SWITCHBOARD_HEAP_GROWTH_PERCENT=0, reported for comparison, not a target): ${v8Growth.rss.everySecond.join(' ')}.`,
    ],
  };
}
