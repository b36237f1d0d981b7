/**
 * Summary of bench/lib/turn-trace.mjs's long turns: how many, how long, and which callbacks
 * took their time (bundled frames mapped back to the source through the build's .map files).
 *
 *   npx tsx bench/turn-trace-summary.ts /tmp/turns/turns-*.jsonl [--top 25] [--profile FILE.cpuprofile]
 *
 * `--profile`: a V8 CPU profile of the same server (`--cpu-prof`); its samples taken inside the
 * long turns (same monotonic clock) give the functions those turns ran, self and inclusive time.
 */
import fs from 'node:fs';
import { SourceMap } from 'node:module';

interface Turn {
  at: number;
  us: [number, number];
  ms: number;
  gc: number;
  other: number;
  top: [string, number][];
}

const maps = new Map<string, SourceMap | null>();
function sourceMap(file: string): SourceMap | null {
  if (!maps.has(file)) maps.set(file, fs.existsSync(`${file}.map`) ? new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8'))) : null);
  return maps.get(file)!;
}

/** `name (/abs/chunk.js:1:234)` → `name lib/…/file.ts:LINE` where the chunk has a map. */
function mapFrame(frame: string): string {
  const m = /^(.*?)\s*\(?((?:file:\/\/)?\/[^()]+?\.js):(\d+):(\d+)\)?$/.exec(frame);
  if (!m) return frame;
  const map = sourceMap(m[2].replace(/^file:\/\//, ''));
  const entry = map?.findEntry(Number(m[3]) - 1, Number(m[4]) - 1) as { originalSource?: string; originalLine?: number } | undefined;
  if (!entry?.originalSource) return `${m[1]} ${m[2].replace(/^.*\//, '')}`;
  return `${m[1]} ${entry.originalSource.replace(/^.*?\/(lib|app|node_modules)\//, '$1/')}:${(entry.originalLine ?? 0) + 1}`;
}
const mapLabel = (label: string) => label.replace(/^(\S+) /, '$1|').split('|').map((p, i) => (i === 0 ? p : p.split(' < ').map(mapFrame).join(' < '))).join(' ');

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const topN = Number(option('--top') ?? 25);
const profileFile = option('--profile');
const files = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const turns: Turn[] = files.flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Turn & { beat?: boolean })).filter((t) => !t.beat);
if (!turns.length) {
  console.log('no long turns');
  process.exit(0);
}
const sorted = turns.map((t) => t.ms).sort((a, b) => a - b);
const total = sorted.reduce((a, b) => a + b, 0);
console.log(`${turns.length} long turns, ${(total / 1000).toFixed(1)} s in all; median ${sorted[sorted.length >> 1]} ms, max ${sorted[sorted.length - 1]} ms`);
for (const limit of [20, 30, 50, 100]) console.log(`  > ${limit} ms: ${sorted.filter((m) => m > limit).length}`);
const byLabel = new Map<string, { ms: number; turns: number }>();
const add = (label: string, ms: number) => {
  const e = byLabel.get(label) ?? { ms: 0, turns: 0 };
  e.ms += ms;
  e.turns++;
  byLabel.set(label, e);
};
for (const t of turns) {
  add('(gc)', t.gc);
  add('(other: promise continuations, libuv, untraced)', t.other);
  for (const [label, ms] of t.top) add(mapLabel(label), ms);
}
console.log(`\nms in long turns by callback (share of ${total.toFixed(0)} ms), turns it ran in`);
for (const [label, e] of [...byLabel].sort((a, b) => b[1].ms - a[1].ms).slice(0, topN)) {
  console.log(`${e.ms.toFixed(0).padStart(8)} ${((100 * e.ms) / total).toFixed(1).padStart(5)}% ${String(e.turns).padStart(5)}  ${label}`);
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

/** Samples of the profile taken inside the long turns: self and inclusive ms by function. */
function profileInTurns(file: string, windows: [number, number][]): void {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: ProfileNode) => {
    const f = n.callFrame;
    const url = f.url.replace(/^file:\/\//, '');
    return mapFrame(`${f.functionName || '(anonymous)'} (${url || 'native'}:${f.lineNumber + 1}:${f.columnNumber + 1})`);
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const sorted = [...windows].sort((a, b) => a[0] - b[0]);
  let t = profile.startTime;
  let w = 0;
  let inTurns = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i];
    t += dt;
    while (w < sorted.length && sorted[w][1] < t) w++;
    if (w >= sorted.length || t < sorted[w][0]) return;
    const ms = dt / 1000;
    inTurns += ms;
    const node = byId.get(id)!;
    self.set(label(node), (self.get(label(node)) ?? 0) + ms);
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const l = label(byId.get(n)!);
      if (seen.has(l)) continue;
      seen.add(l);
      inclusive.set(l, (inclusive.get(l) ?? 0) + ms);
    }
  });
  const print = (title: string, m: Map<string, number>) => {
    console.log(`\n${title} (${inTurns.toFixed(0)} ms of samples in long turns)`);
    for (const [l, ms] of [...m].sort((a, b) => b[1] - a[1]).slice(0, topN)) console.log(`${ms.toFixed(0).padStart(8)} ${((100 * ms) / inTurns).toFixed(1).padStart(5)}%  ${l}`);
  };
  print('self time in long turns', self);
  print('inclusive time in long turns', inclusive);
}
if (profileFile) profileInTurns(profileFile, turns.map((t) => t.us));
