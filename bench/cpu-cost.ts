/**
 * Server CPU per streamed chunk and per echo send, Switchboard beside next-floor: the figure a
 * busy shared machine bends least (a wall-clock rate halves when another process takes the core,
 * the CPU a server spends on one chunk does not). Used to judge each cut of issue 28's floor work.
 *
 *   npx tsx bench/cpu-cost.ts [--dist .next-bench] [--streams 20] [--sends 20000] [--only stream,echo]
 *                             [--baseline DIR] [--rounds N] [--cpu-prof]
 *
 * --baseline DIR also measures the Switchboard built in another checkout (its `next build` in
 * DIR/.next, e.g. `git archive main | tar -x -C DIR`, node_modules, `next build`), interleaved
 * with this tree's in each of --rounds rounds.
 *
 * Needs a build (`npm run bench -- --only stream` makes `.next-bench`; `--dist .next` uses
 * `next build`'s). With --cpu-prof the servers' V8 profiles land in bench/results/profiles/
 * (summarise with bench/profile-summary.ts); the warm-up runs before the measured part, so
 * start-up is a small, recognisable share.
 */
import os from 'node:os';
import path from 'node:path';
import { A2A_HEADERS, expectedArtifact, sendBody } from './lib/a2a';
import { runLoad } from './lib/load';
import { streamOnce } from './scenarios/stream';
import { killAllServers, startServer, type RunningServer, type ServerKind } from './lib/servers';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const distDir = option('--dist', '.next-bench');
const streams = Number(option('--streams', '20'));
const sends = Number(option('--sends', '20000'));
const only = option('--only', 'stream,echo').split(',');
const baseline = option('--baseline', '');
const rounds = Number(option('--rounds', '1'));
const cpuProfDir = args.includes('--cpu-prof') ? path.resolve('bench/results/profiles') : undefined;
const CHUNKS = 2000;
const SIZE = 500;

const EXPECTED = expectedArtifact(CHUNKS, SIZE);

/** One 2,000-chunk stream, read and checked as scenario 3 reads it. */
async function stream(server: RunningServer): Promise<number> {
  const run = await streamOnce(server, CHUNKS, EXPECTED);
  if (!run.whole || !run.completed || run.chunks !== CHUNKS) throw new Error(`${server.kind}: ${run.chunks} chunks, whole ${run.whole}, completed ${run.completed}`);
  return run.chunks;
}

/** CPU µs per unit and units per second of `work`, measured on the server process. */
async function measure(server: RunningServer, work: () => Promise<number>): Promise<{ cpuUs: number; rate: number }> {
  const cpu0 = server.cpuSeconds();
  const t0 = performance.now();
  const units = await work();
  const seconds = (performance.now() - t0) / 1000;
  return { cpuUs: ((server.cpuSeconds() - cpu0) * 1e6) / units, rate: units / seconds };
}

const streamWork = (server: RunningServer) => async () => {
  let n = 0;
  for (let i = 0; i < streams; i++) n += await stream(server);
  return n;
};

const echoWork = (server: RunningServer) => async () => {
  const r = await runLoad({ url: `${server.url}/a2a/echo`, body: sendBody('hello'), headers: A2A_HEADERS, connections: 50, amount: sends, expect: 'TASK_STATE_COMPLETED' });
  if (r.bad || r.errors) throw new Error(`${server.kind}: ${r.bad} bad, ${r.errors} errors`);
  return r.good;
};

async function main(): Promise<void> {
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const targets: { name: string; kind: ServerKind; cwd?: string; dist: string }[] = [
    { name: 'next-floor', kind: 'next-floor', dist: distDir },
    { name: 'switchboard', kind: 'switchboard', dist: distDir },
    ...(baseline ? [{ name: 'baseline', kind: 'switchboard' as const, cwd: path.resolve(baseline), dist: '.next' }] : []),
  ];
  for (let round = 0; round < rounds; round++) for (const { name, kind, cwd, dist } of targets) {
    const server = await startServer(kind, { distDir: dist, cpuProfDir, cwd });
    try {
      if (only.includes('stream')) for (let i = 0; i < 3; i++) await stream(server); // warm-up
      if (only.includes('echo')) await runLoad({ url: `${server.url}/a2a/echo`, body: sendBody('hello'), headers: A2A_HEADERS, connections: 50, amount: 2000, expect: 'TASK_STATE_COMPLETED' });
      if (only.includes('stream')) {
        const s = await measure(server, streamWork(server));
        console.log(`${name.padEnd(12)} stream: ${s.cpuUs.toFixed(1)} µs CPU per chunk, ${Math.round(s.rate)} chunks/s`);
      }
      if (only.includes('echo')) {
        const e = await measure(server, echoWork(server));
        console.log(`${name.padEnd(12)} echo: ${(e.cpuUs / 1000).toFixed(3)} ms CPU per send, ${Math.round(e.rate)} sends/s`);
      }
    } finally {
      await server.stop();
    }
  }
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

main().catch((err) => {
  console.error(err);
  killAllServers();
  process.exit(1);
});
