/**
 * What a relay agent costs (docs/relay.md), on its own: scenario 8 of `npm run bench`
 * (bench/scenarios/relay.ts) with its JSON on stdout. `--baseline DIR` relays through a second
 * hub built from another checkout too (e.g. `git worktree add /tmp/base main` and build it
 * there), measured in the same rounds: before and after side by side.
 *
 *   npx tsx bench/relay.ts [--peer ref-sdk|switchboard] [--sends 300] [--streams 3] [--dist .next]
 *                          [--baseline DIR] [--cpu-prof] [--queries]
 *
 * `--streams 0` measures the blocking echo alone (no stream, no stream warm-up): an echo-only
 * profile with `--cpu-prof`. `--queries` counts each hub's database work per relayed and per
 * served echo (GET /api/debug/queries; the counting costs a little CPU, so leave it off for timings).
 */
import fs from 'node:fs';
import path from 'node:path';
import { killAllServers, startServer } from './lib/servers';
import type { BenchContext } from './lib/context';
import { RESULTS_DIR } from './lib/report';
import { measureRelay, relayReport, type RelayOptions } from './scenarios/relay';

const arg = (name: string, fallback?: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const DIST = arg('dist', '.next')!;
const cpuProfDir = process.argv.includes('--cpu-prof') ? path.resolve(RESULTS_DIR, 'profiles') : undefined;
if (cpuProfDir) fs.mkdirSync(cpuProfDir, { recursive: true });

const ctx: BenchContext = {
  quick: false,
  runs: 1,
  distDir: DIST,
  cpuProfDir,
  log: (message) => process.stderr.write(`${message}\n`),
  start: (kind, extra = {}) => startServer(kind, { distDir: DIST, cpuProfDir, ...extra }),
};

const baseline = arg('baseline');
const opts: RelayOptions = {
  peer: arg('peer', 'ref-sdk') === 'switchboard' ? 'switchboard' : 'ref-sdk',
  sends: Number(arg('sends', '300')),
  streams: Number(arg('streams', '3')),
  ...(baseline ? { baseline } : {}),
  queries: process.argv.includes('--queries'),
};

measureRelay(ctx, opts)
  .then((figures) => process.stdout.write(`${JSON.stringify({ at: new Date().toISOString(), ...relayReport(figures, opts) }, null, 2)}\n`))
  .catch((err) => {
    killAllServers();
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
