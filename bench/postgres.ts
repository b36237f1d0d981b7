/**
 * PostgreSQL bench (issue 15), on its own:
 * `npx tsx bench/postgres.ts [--dist .next] [--seconds 8] [--rounds 2] [--only echo,stream,takeover,cross]`.
 * Needs a build (`npx next build`; --dist names its directory). Starts an embedded PostgreSQL.
 *
 * 1. echo: blocking SendMessage to `echo`, 50 connections, SQLite and PostgreSQL servers
 *    interleaved (S, P, S, P…), after a warm-up each; sends/s and server CPU ms per send, and the
 *    PostgreSQL / SQLite ratio per round.
 * 2. stream: SendStreamingMessage to `slow` with `work 0s chunks N size 500`, N = 200 and 2,000,
 *    on PostgreSQL: ms per chunk for each N (linear in chunks = about the same per chunk).
 * 3. takeover: A and B with a 1 s lease; `kill -9` of A while it runs a slow turn; time until B
 *    has ended it FAILED `interrupted: instance lost`.
 * 4. two instances A and B on one database: 100 echo tasks/s sent to A; per-task streams on B
 *    follow long `slow` tasks running on A (one event a second each), and dashboard feeds on
 *    both instances. Cross-instance latency = receive time on B − the event's commit time (`at`,
 *    same clock). Missed: a per-task stream with a seq gap or no end, or a feed that did not see
 *    every completed task (checked on the parsing feeds; the others must have received the same
 *    bytes as the parsing ones on their instance).
 */
import http from 'node:http';
import { setMaxListeners } from 'node:events';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { A2A_HEADERS, postJson, sendBody, streamBody } from './lib/a2a';
import { runLoad } from './lib/load';
import { killAllServers, startServer, type RunningServer } from './lib/servers';
import { readSse } from './lib/sse-client';
import { Histogram } from './lib/stats';
import { startEmbeddedPostgres } from '../tests/support/embedded-postgres';
import { freshPgDatabase } from '../tests/support/postgres';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const distDir = arg('dist', '.next');
const seconds = Number(arg('seconds', '8'));
const rounds = Number(arg('rounds', '2'));
const EXPECT = 'TASK_STATE_COMPLETED';

async function echoRun(server: RunningServer): Promise<{ rps: number; cpuMsPerSend: number }> {
  const body = sendBody('bench');
  await runLoad({ url: `${server.url}/a2a/echo`, body, headers: A2A_HEADERS, expect: EXPECT, connections: 50, duration: 2 });
  const cpu0 = server.cpuSeconds();
  const load = await runLoad({ url: `${server.url}/a2a/echo`, body, headers: A2A_HEADERS, expect: EXPECT, connections: 50, duration: seconds });
  if (load.bad || load.errors) throw new Error(`echo: ${load.bad} bad, ${load.errors} errors`);
  return { rps: Math.round(load.rps), cpuMsPerSend: Math.round(((server.cpuSeconds() - cpu0) * 1000 * 100) / load.good) / 100 };
}

async function echoComparison(adminUrl: string): Promise<void> {
  const ratios: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    const sqlite = await startServer('switchboard', { distDir });
    const s = await echoRun(sqlite).finally(() => sqlite.stop());
    const postgres = await startServer('switchboard', { distDir, env: { DATABASE_URL: await freshPgDatabase(adminUrl) } });
    const p = await echoRun(postgres).finally(() => postgres.stop());
    ratios.push(p.rps / s.rps);
    console.log(`echo round ${round}: SQLite ${s.rps} sends/s (${s.cpuMsPerSend} ms CPU/send), PostgreSQL ${p.rps} sends/s (${p.cpuMsPerSend} ms CPU/send), ratio ${(p.rps / s.rps).toFixed(2)}`);
  }
  console.log(`echo: PostgreSQL / SQLite per round ${ratios.map((r) => r.toFixed(2)).join(', ')}`);
}

async function streamLinearity(adminUrl: string): Promise<void> {
  const server = await startServer('switchboard', { distDir, env: { DATABASE_URL: await freshPgDatabase(adminUrl) } });
  try {
    const perChunk: Record<number, number[]> = { 200: [], 2000: [] };
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
  const a = await startServer('switchboard', { distDir, env: { ...env, SWITCHBOARD_INSTANCE_ID: 'a' } });
  const b = await startServer('switchboard', { distDir, env: { ...env, SWITCHBOARD_INSTANCE_ID: 'b' } });
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

async function crossInstance(adminUrl: string): Promise<void> {
  const DATABASE_URL = await freshPgDatabase(adminUrl);
  const a = await startServer('switchboard', { distDir, env: { DATABASE_URL, SWITCHBOARD_INSTANCE_ID: 'a' } });
  const b = await startServer('switchboard', { distDir, env: { DATABASE_URL, SWITCHBOARD_INSTANCE_ID: 'b' } });
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const latency = new Histogram();
  const FEEDS_PER_INSTANCE = 450;
  const PARSING = 25;
  const WATCHED = 50;
  try {
    const feeds = [a, b].flatMap((server) =>
      Array.from({ length: FEEDS_PER_INSTANCE }, (_, i) => {
        const sub = { server, parsing: i < PARSING, completed: new Set<string>(), bytes: 0, open: null as unknown as Promise<void> };
        let opened!: () => void;
        sub.open = new Promise<void>((r) => (opened = r));
        void readSse({
          url: `${server.url}/api/feed`,
          agent,
          signal: stop.signal,
          onOpen: () => opened(),
          onFrame: (frame) => {
            if (frame.event !== 'tasks') return;
            sub.bytes += frame.data.length;
            if (sub.parsing) for (const t of (JSON.parse(frame.data) as { tasks: { id: string; state: string }[] }).tasks) if (t.state === 'completed') sub.completed.add(t.id);
          },
        });
        return sub;
      }),
    );
    await Promise.all(feeds.map((f) => f.open));
    const watchText = `work ${seconds + 4}s chunks ${seconds + 4} size 200`;
    const watched: string[] = [];
    for (let i = 0; i < WATCHED; i++) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: watchText }] }, configuration: { returnImmediately: true } } });
      watched.push(((await postJson(`${a.url}/a2a/slow`, body, A2A_HEADERS)).result as { task: { id: string } }).task.id);
    }
    let streamProblems = 0;
    const streams = watched.flatMap((id) =>
      [0, 1].map(() => {
        let last = -1;
        let ended = false;
        return readSse({
          url: `${b.url}/api/tasks/${id}/events`,
          agent,
          signal: stop.signal,
          onFrame: (frame) => {
            if (frame.event === 'snapshot') last = (JSON.parse(frame.data) as { task: { lastSeq: number } }).task.lastSeq;
            else if (frame.event === 'task-event') {
              const e = JSON.parse(frame.data) as { seq: number; at: string };
              if (e.seq !== last + 1) streamProblems++;
              last = e.seq;
              latency.add(frame.receivedAt - Date.parse(e.at));
            } else if (frame.event === 'end') {
              ended = true;
              return false;
            }
          },
        }).then(() => {
          if (!ended) streamProblems++;
        });
      }),
    );
    const load = await runLoad({ url: `${a.url}/a2a/echo`, body: sendBody('fan-out'), headers: A2A_HEADERS, expect: EXPECT, connections: 10, overallRate: 100, duration: seconds });
    await Promise.race([Promise.all(streams), new Promise((r) => setTimeout(r, 60_000))]);
    await new Promise((r) => setTimeout(r, 1_000)); // the feeds' last coalesced frame
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    const completed = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Task" WHERE "state" = 'completed'`)).rows[0].n;
    await client.end();
    let feedMissing = 0;
    for (const server of [a, b]) {
      const mine = feeds.filter((f) => f.server === server);
      const reference = mine[0].bytes;
      feedMissing += mine.filter((f) => (f.parsing && f.completed.size < completed) || f.bytes !== reference).length;
    }
    console.log(
      `two instances: ${load.good} echo tasks at ${Math.round(load.rps)}/s on A (+${WATCHED} slow tasks), ${streams.length} per-task streams on B, ${feeds.length} feeds on A and B; ` +
        `cross-instance latency (commit on A → frame on B) p50 ${latency.percentile(50)} ms, p99 ${latency.percentile(99)} ms, max ${latency.max} ms over ${latency.count} events; ` +
        `missed: ${streamProblems} stream problems, ${feedMissing} feeds short of ${completed} completed tasks`,
    );
  } finally {
    stop.abort();
    agent.destroy();
    await Promise.all([a.stop(), b.stop()]);
  }
}

async function main(): Promise<void> {
  const server = await startEmbeddedPostgres();
  try {
    const only = arg('only', 'echo,stream,takeover,cross').split(',');
    if (only.includes('echo')) await echoComparison(server.url);
    if (only.includes('stream')) await streamLinearity(server.url);
    if (only.includes('takeover')) await takeover(server.url);
    if (only.includes('cross')) await crossInstance(server.url);
  } finally {
    killAllServers();
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  killAllServers();
  process.exit(1);
});
