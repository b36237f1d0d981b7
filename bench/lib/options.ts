/** Command-line options of `npm run bench -- [options]` (documented in bench/README.md). */
import { MAX_DETACHED } from './detach-burst';

export const SCENARIOS = ['echo', 'stream', 'memory', 'detach', 'history', 'fanout', 'retention', 'relay', 'cluster'] as const;
export type ScenarioId = (typeof SCENARIOS)[number];

export interface BenchOptions {
  quick: boolean;
  only: ScenarioId[];
  runs: number;
  distDir: string;
  build: 'always' | 'if-missing' | 'never';
  cpuProf: boolean;
  writeDocs: boolean;
  /** Wait (at most 3 min) for other processes to leave the machine alone before each scenario (off: `--no-quiet-wait`). */
  waitQuiet: boolean;
  /** Also write the results JSON here (the smoke test reads it). */
  out?: string;
  /** NODE_OPTIONS for the Switchboard server only (e.g. "--max-old-space-size=160"). */
  switchboardNodeOptions?: string;
  /** Scenario retention: tasks seeded (default 500,000; quick 5,000). */
  tasks?: number;
  /** Scenario detach: tasks detached at once (default 10,000; quick 100; at most MAX_DETACHED). */
  detached?: number;
  /** Scenario history: tasks seeded (default 100,000; quick 5,000); the 1M-task figure: 1,000,000. */
  historyTasks?: number;
  /** Scenario history: a file seeded before by bench/seed.ts, used in place of seeding (a 1M seed takes over half an hour). */
  historyDb?: string;
  /** Scenario history: a PostgreSQL database seeded before by bench/seed-pg.ts, measured in place of a SQLite file. */
  historyPgUrl?: string;
  /** Scenario cluster: instances behind the balancer (default 3), task changes/s asked (default 300), dashboard feeds (default 900; quick 30). */
  instances?: number;
  changes?: number;
  feeds?: number;
  /** Scenario relay: another checkout (built) relaying too, measured side by side (before/after). */
  relayBaseline?: string;
}

const USAGE = `usage: npm run bench -- [--quick] [--only echo,stream,...] [--runs N] [--dist DIR]
                        [--no-build | --build-if-missing] [--cpu-prof] [--no-docs] [--no-quiet-wait] [--out FILE]
                        [--switchboard-node-options "FLAGS"] [--tasks N] [--detached N] [--relay-baseline DIR]
                        [--history-tasks N] [--history-db FILE | --history-pg-url URL]
                        [--instances N] [--changes N] [--feeds N]
scenarios: ${SCENARIOS.join(', ')}`;

/** `--detached N`: a whole number from 1 to MAX_DETACHED (the bench's sockets are the bound). */
export function detachedCount(raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_DETACHED) throw new Error(`--detached: expected a whole number from 1 to ${MAX_DETACHED} (got ${raw})\n${USAGE}`);
  return n;
}

export function parseOptions(argv: string[]): BenchOptions {
  const opts: BenchOptions = {
    quick: false,
    only: [...SCENARIOS],
    runs: 3,
    distDir: process.env.SWITCHBOARD_BENCH_DIST_DIR || '.next-bench',
    build: 'always',
    cpuProf: false,
    writeDocs: true,
    waitQuiet: true,
  };
  let runsGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value\n${USAGE}`);
      return v;
    };
    if (arg === '--quick') opts.quick = true;
    else if (arg === '--only') {
      const ids = value().split(',').map((s) => s.trim());
      const unknown = ids.filter((id) => !(SCENARIOS as readonly string[]).includes(id));
      if (unknown.length) throw new Error(`unknown scenario ${unknown.join(', ')}\n${USAGE}`);
      opts.only = ids as ScenarioId[];
    } else if (arg === '--runs') {
      opts.runs = Number(value());
      runsGiven = true;
      if (!Number.isInteger(opts.runs) || opts.runs < 1) throw new Error(`--runs: expected a positive whole number\n${USAGE}`);
    } else if (arg === '--dist') opts.distDir = value();
    else if (arg === '--no-build') opts.build = 'never';
    else if (arg === '--build-if-missing') opts.build = 'if-missing';
    else if (arg === '--cpu-prof') opts.cpuProf = true;
    else if (arg === '--no-docs') opts.writeDocs = false;
    else if (arg === '--no-quiet-wait') opts.waitQuiet = false;
    else if (arg === '--out') opts.out = value();
    else if (arg === '--switchboard-node-options') opts.switchboardNodeOptions = value();
    else if (arg === '--relay-baseline') opts.relayBaseline = value();
    else if (arg === '--tasks') {
      opts.tasks = Number(value());
      if (!Number.isInteger(opts.tasks) || opts.tasks < 1) throw new Error(`--tasks: expected a positive whole number\n${USAGE}`);
    } else if (arg === '--detached') opts.detached = detachedCount(value());
    else if (arg === '--history-tasks') {
      opts.historyTasks = Number(value());
      if (!Number.isInteger(opts.historyTasks) || opts.historyTasks < 1) throw new Error(`--history-tasks: expected a positive whole number\n${USAGE}`);
    } else if (arg === '--history-db') opts.historyDb = value();
    else if (arg === '--history-pg-url') opts.historyPgUrl = value();
    else if (arg === '--instances' || arg === '--changes' || arg === '--feeds') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 0) throw new Error(`${arg}: expected a whole number\n${USAGE}`);
      opts[arg.slice(2) as 'instances' | 'changes' | 'feeds'] = n;
    } else if (arg === '--help' || arg === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else throw new Error(`unknown option ${arg}\n${USAGE}`);
  }
  if (opts.quick) {
    if (!runsGiven) opts.runs = 1;
    opts.writeDocs = false;
  }
  return opts;
}

/** A standalone bench script's `--name value` option, or `fallback` when it is not given. */
export function cliOption(name: string, fallback: string, argv: string[] = process.argv.slice(2)): string {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
}
