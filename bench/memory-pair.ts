/**
 * Scenario 2's measure (RSS of a fresh server over N blocking echo sends at 50 connections) for
 * this tree's build beside another checkout's, interleaved round by round, with the server CPU
 * per send: what judges a memory cut that must not cost echo CPU (issue 28).
 *
 *   npx tsx bench/memory-pair.ts --baseline DIR [--dist .next] [--sends 100000] [--rounds 2]
 *
 * DIR is a checkout with its own node_modules and `next build` in DIR/.next (as for
 * bench/cpu-cost.ts). RSS is VmRSS from /proc: at start (booted, idle 1 s), after half the sends,
 * after all of them, and the peak sampled every second.
 */
import path from 'node:path';
import { A2A_HEADERS, sendBody } from './lib/a2a';
import { runLoad } from './lib/load';
import { killAllServers, startServer } from './lib/servers';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const distDir = option('--dist', '.next');
const baseline = option('--baseline', '');
const sends = Number(option('--sends', '100000'));
const rounds = Number(option('--rounds', '2'));

interface Run {
  startMb: number;
  halfMb: number;
  endMb: number;
  peakMb: number;
  cpuMsPerSend: number;
  rate: number;
}

async function measure(cwd: string | undefined, dist: string): Promise<Run> {
  const server = await startServer('switchboard', { distDir: dist, cwd });
  try {
    await new Promise((r) => setTimeout(r, 1000));
    const run: Run = { startMb: server.rssMb(), halfMb: 0, endMb: 0, peakMb: 0, cpuMsPerSend: 0, rate: 0 };
    run.peakMb = run.startMb;
    const sample = () => (run.peakMb = Math.max(run.peakMb, server.rssMb()));
    const cpu0 = server.cpuSeconds();
    let good = 0;
    let seconds = 0;
    for (const half of [0, 1]) {
      const r = await runLoad({ url: `${server.url}/a2a/echo`, body: sendBody('hello from the benchmark'), headers: A2A_HEADERS, expect: 'TASK_STATE_COMPLETED', connections: 50, amount: sends / 2, onTick: sample });
      good += r.good;
      seconds += r.durationSec;
      if (half === 0) run.halfMb = server.rssMb();
      else run.endMb = server.rssMb();
      sample();
    }
    if (good !== sends) throw new Error(`${good} of ${sends} sends completed`);
    run.cpuMsPerSend = ((server.cpuSeconds() - cpu0) * 1000) / good;
    run.rate = good / seconds;
    return run;
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  if (!baseline) throw new Error('--baseline DIR is required');
  const targets = [
    { name: 'this tree', cwd: undefined, dist: distDir },
    { name: 'baseline', cwd: path.resolve(baseline), dist: '.next' },
  ];
  for (let round = 1; round <= rounds; round++) {
    for (const { name, cwd, dist } of round % 2 ? targets : [...targets].reverse()) {
      const r = await measure(cwd, dist);
      const mb = (n: number) => n.toFixed(0);
      console.log(`round ${round} ${name}: RSS start ${mb(r.startMb)} / @${sends / 2000}k ${mb(r.halfMb)} / @${sends / 1000}k ${mb(r.endMb)} / peak ${mb(r.peakMb)} MB; ${r.cpuMsPerSend.toFixed(2)} ms CPU per send, ${r.rate.toFixed(0)} sends/s`);
    }
  }
}

main().catch((err) => {
  killAllServers();
  console.error(err);
  process.exit(1);
});
