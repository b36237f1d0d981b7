/**
 * Where the time goes in a V8 CPU profile (`npm run bench -- --cpu-prof` writes them to
 * bench/results/profiles/): self time by function and by source area, top N.
 *
 *   npx tsx bench/profile-summary.ts bench/results/profiles/switchboard-*.cpuprofile [--top 30] [--from S] [--to S] [--under TEXT]
 *
 * `--from` / `--to`: only the samples taken that many seconds after the profile started.
 * --under TEXT keeps only the samples with a frame whose label contains TEXT on their stack
 * (e.g. `--under write-queue.ts:48`, the group commit): what that call costs, broken down.
 */
import fs from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Groups a script URL into an area a reader recognises. */
function area(url: string): string {
  if (!url) return '(native / idle / gc)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.startsWith('node:')) return url;
  const chunk = /\[project\]\/([^ ]+?)(?: |$|\[)/.exec(decodeURIComponent(url));
  if (chunk) return chunk[1].split('/').slice(0, 2).join('/');
  return url.replace(/^file:\/\/.*\/work\/[^/]+\//, '');
}

const maps = new Map<string, SourceMap | null>();

/** Bundled (minified) frames are mapped back to their source file and line through the .map. */
function sourceMapFor(url: string): SourceMap | null {
  if (!url.startsWith('file://') || !url.endsWith('.js')) return null;
  if (!maps.has(url)) {
    const file = `${fileURLToPath(url)}.map`;
    maps.set(url, fs.existsSync(file) ? new SourceMap(JSON.parse(fs.readFileSync(file, 'utf8'))) : null);
  }
  return maps.get(url)!;
}

function label(frame: ProfileNode['callFrame']): string {
  const name = frame.functionName || '(anonymous)';
  const map = sourceMapFor(frame.url);
  if (map && frame.lineNumber >= 0) {
    const entry = map.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string; originalLine?: number; name?: string };
    if (entry.originalSource) {
      const source = entry.originalSource.replace(/^.*?\/(lib|app|node_modules)\//, '$1/');
      return `${entry.name ?? name}  ${source}:${(entry.originalLine ?? 0) + 1}`;
    }
  }
  return `${name}  ${area(frame.url)}:${frame.lineNumber + 1}`;
}

function summarize(file: string, top: number, window: { from: number; to: number }, under: string | undefined): void {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const labels = new Map(profile.nodes.map((n) => [n.id, label(n.callFrame)]));
  const self = new Map<number, number>();
  const onStack = (id: number) => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) if (labels.get(at)!.includes(under!)) return true;
    return false;
  };
  // Only the samples inside the window (seconds from the profile's start), e.g. the measured
  // part of a bench run without the server's start-up.
  let at = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < window.from * 1e6 || at > window.to * 1e6) return;
    if (under === undefined || onStack(id)) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fns = new Map<string, number>();
  const areas = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    const name = labels.get(id)!;
    fns.set(name, (fns.get(name) ?? 0) + us);
    const a = area(node.callFrame.url);
    areas.set(a, (areas.get(a) ?? 0) + us);
    // Inclusive: every distinct function on the sampled stack gets the sample once.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const l = labels.get(at)!;
      if (seen.has(l)) continue;
      seen.add(l);
      inclusive.set(l, (inclusive.get(l) ?? 0) + us);
    }
  }
  const print = (title: string, m: Map<string, number>, filter: (k: string) => boolean = () => true) => {
    process.stdout.write(`\n${title}\n`);
    for (const [k, us] of [...m].filter(([k]) => filter(k)).sort((a, b) => b[1] - a[1]).slice(0, top)) {
      process.stdout.write(`${((us / total) * 100).toFixed(1).padStart(6)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}\n`);
    }
  };
  process.stdout.write(`${file}: ${(total / 1e6).toFixed(2)} s sampled${under === undefined ? '' : ` under "${under}"`}\n`);
  print('self time by area', areas);
  print('self time by function', fns);
  print("inclusive time of this project's functions (lib/, app/)", inclusive, (k) => / (lib|app)\//.test(k) && !k.includes('lib/db/generated'));
}

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 25;
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args.splice(i, 2)[1]) : fallback;
};
const window = { from: option('from', 0), to: option('to', Infinity) };
const underAt = args.indexOf('--under');
const under = underAt >= 0 ? args.splice(underAt, 2)[1] : undefined;
if (!args.length) {
  process.stderr.write('usage: npx tsx bench/profile-summary.ts <file.cpuprofile>... [--top N] [--from S] [--to S] [--under TEXT]\n');
  process.exit(2);
}
for (const file of args) summarize(file, top, window, under);
