/**
 * The benchmark suite: builds Switchboard and the next-floor app, starts the servers
 * on loopback ports, runs the scenarios, and writes bench/results/*.json plus, for full runs, the
 * summary in docs/benchmarks.md. Everything it starts it stops, also on failure or Ctrl-C.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildFloor, buildSwitchboard, floorBuilt, hasBuild } from './lib/build';
import type { BenchContext, ScenarioResult } from './lib/context';
import { parseOptions, type ScenarioId } from './lib/options';
import { environment, RESULTS_DIR, renderMarkdown, updateDoc, writeResults } from './lib/report';
import { killAllServers, SERVER_KINDS, startServer, type RunningServer, type ServerKind } from './lib/servers';
import { echoScenario } from './scenarios/echo';
import { streamScenario } from './scenarios/stream';
import { memoryScenario } from './scenarios/memory';
import { detachScenario } from './scenarios/detach';
import { historyScenario } from './scenarios/history';
import { fanoutScenario } from './scenarios/fanout';
import { retentionScenario } from './scenarios/retention';
import { relayScenario } from './scenarios/relay';
import { clusterScenario } from './scenarios/cluster';
import { waitQuiet } from './lib/machine-load';

const opts = parseOptions(process.argv.slice(2));
const started = Date.now();
const log = (message: string) => process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);

process.on('exit', killAllServers);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAllServers();
    process.exit(130);
  });
}

function build(): void {
  const needSwitchboard = opts.build === 'always' || (opts.build === 'if-missing' && !hasBuild(opts.distDir));
  if (needSwitchboard) buildSwitchboard(opts.distDir);
  else if (!hasBuild(opts.distDir)) throw new Error(`no Switchboard build in ${opts.distDir} (drop --no-build)`);
  // Only echo and stream measure against the bare framework route.
  const needFloor = opts.only.some((id) => id === 'echo' || id === 'stream');
  if (needFloor && (opts.build === 'always' || !floorBuilt())) buildFloor();
}

const cpuProfDir = opts.cpuProf ? path.resolve(RESULTS_DIR, 'profiles') : undefined;
if (cpuProfDir) fs.mkdirSync(cpuProfDir, { recursive: true });

const ctx: BenchContext = {
  quick: opts.quick,
  runs: opts.runs,
  distDir: opts.distDir,
  cpuProfDir,
  log,
  start: (kind, extra = {}) => {
    const nodeOptions: Record<string, string> = kind === 'switchboard' && opts.switchboardNodeOptions ? { NODE_OPTIONS: opts.switchboardNodeOptions } : {};
    return startServer(kind, { distDir: opts.distDir, cpuProfDir, ...extra, env: { ...nodeOptions, ...extra.env } });
  },
};

/** Scenarios 1 and 3 share one set of servers, measured in turn. */
async function sideBySide(ids: ScenarioId[]): Promise<ScenarioResult[]> {
  const servers = {} as Record<ServerKind, RunningServer>;
  try {
    for (const kind of SERVER_KINDS) servers[kind] = await ctx.start(kind);
    log(`servers up: ${SERVER_KINDS.map((k) => `${k} ${servers[k].url}`).join(', ')}`);
    const results: ScenarioResult[] = [];
    if (ids.includes('echo')) results.push(await echoScenario(ctx, servers));
    if (ids.includes('stream')) results.push(await streamScenario(ctx, servers));
    return results;
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
  }
}

async function main(): Promise<void> {
  const env = environment();
  log(`${opts.quick ? 'quick' : 'full'} run: ${opts.only.join(', ')}; ${opts.runs} run(s) each; build ${opts.build} (${opts.distDir})`);
  build();
  const scenarios: ScenarioResult[] = [];
  /** Other processes' load (cores) when each scenario started, after waiting for quiet. */
  const startLoad: Record<string, number> = {};
  const quiet = async (id: string) => {
    if (!opts.quick && opts.waitQuiet) startLoad[id] = Math.round((await waitQuiet(log)) * 100) / 100;
  };
  const shared = opts.only.filter((id) => id === 'echo' || id === 'stream');
  if (shared.length) {
    await quiet(shared.join('+'));
    scenarios.push(...(await sideBySide(shared)));
  }
  const retention = (c: BenchContext) => retentionScenario(c, opts.tasks ?? (opts.quick ? 5_000 : 500_000));
  const relay = (c: BenchContext) => relayScenario(c, opts.relayBaseline);
  const detach = (c: BenchContext) => detachScenario(c, opts.detached);
  const history = (c: BenchContext) => historyScenario(c, { tasks: opts.historyTasks, db: opts.historyDb, pgUrl: opts.historyPgUrl });
  const cluster = (c: BenchContext) => clusterScenario(c, { instances: opts.instances, changes: opts.changes, feeds: opts.feeds });
  const alone = { memory: memoryScenario, detach, history, fanout: fanoutScenario, retention, relay, cluster } as const;
  for (const id of ['memory', 'detach', 'history', 'fanout', 'retention', 'relay', 'cluster'] as const) {
    if (!opts.only.includes(id)) continue;
    await quiet(id);
    scenarios.push(await alone[id](ctx));
  }

  const report = { ...env, mode: opts.quick ? ('quick' as const) : ('full' as const), args: process.argv.slice(2), startLoad, scenarios };
  const file = writeResults(report);
  if (opts.out) fs.writeFileSync(opts.out, JSON.stringify(report, null, 2));
  process.stdout.write(`\n${renderMarkdown(report)}\n\nresults: ${file}\n`);
  if (opts.writeDocs && !opts.quick) {
    updateDoc(report);
    log('docs/benchmarks.md updated');
  }
  log('done');
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  killAllServers();
  process.exit(1);
});
