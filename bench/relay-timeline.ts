/**
 * Where the wall-clock time of a sequential relayed echo goes (not only the CPU): a peer and a
 * relaying hub with bench/lib/timeline-preload.mjs loaded, `--sends` relayed blocking echoes one
 * at a time after `--warm` warm-up ones, then each milestone of a relayed echo (the hub's
 * outbound calls to the peer, its commits, its answer) as the median time after the request
 * arrived, and the hub's CPU over the request.
 *
 *   npx tsx bench/relay-timeline.ts [--peer ref-sdk|switchboard] [--sends 200] [--warm 30] [--dist .next] [--cwd DIR] [--agent relay-echo|echo]
 *
 * `--cwd DIR` times a hub built in another checkout (e.g. main's).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { A2A_HEADERS, sendBody } from './lib/a2a';
import { killAllServers, startServer, type RunningServer } from './lib/servers';
import { median, percentile, round } from './lib/stats';

/** The command line's `--name value` pairs. */
const given = new Map(process.argv.slice(2).flatMap((a, i, all) => (a.startsWith('--') ? [[a.slice(2), all[i + 1]] as const] : [])));
const DIST = given.get('dist') ?? '.next';
const SENDS = Number(given.get('sends') ?? 200);
const WARM = Number(given.get('warm') ?? 30);
const PEER = given.get('peer') === 'switchboard' ? 'switchboard' : 'ref-sdk';
const CWD = given.get('cwd') ?? '';
/** `--agent echo` times the hub's own echo instead (a served echo: what relaying adds beside it). */
const AGENT = given.get('agent') ?? 'relay-echo';

interface Timeline {
  url: string;
  ms: number;
  cpuMs: number;
  events: [number, string][];
}

async function send(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers: A2A_HEADERS, body: sendBody('hello relay', randomUUID()) });
  const body = await res.text();
  if (!/"(TASK_STATE_)?COMPLETED"|"completed"/i.test(body)) throw new Error(`${url}: not completed: ${body.slice(0, 300)}`);
  return performance.now() - started;
}

async function startHub(peer: RunningServer, timeline: string): Promise<RunningServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-timeline-'));
  const config = { peers: [{ name: 'ref', url: `${peer.url}/a2a/echo` }], agents: [{ slug: 'relay-echo', name: 'Relayed echo', relay: { peer: 'ref' }, responseWindowSeconds: 60 }] };
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
  const preload = path.resolve('bench/lib/timeline-preload.mjs');
  const env = { SWITCHBOARD_CONFIG: path.join(dir, 'config.json'), SWITCHBOARD_TIMELINE: timeline, NODE_OPTIONS: `--import ${pathToFileURL(preload).href}` };
  return startServer('switchboard', { distDir: DIST, env, ...(CWD ? { cwd: path.resolve(CWD) } : {}) });
}

/** A milestone's key: its label with numbers and sizes dropped, and which occurrence it is. */
function milestones(t: Timeline): Map<string, number> {
  const seen = new Map<string, number>();
  const out = new Map<string, number>();
  for (const [at, label] of t.events) {
    const base = label.replace(/commit [\d.]+ ms/, 'commit').replace(/data \d+B/, 'data').replace(/headers \d+/, 'headers').replace(/\/a2a\/\S+/, '/a2a/…');
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    out.set(`${base} #${n}`, at);
  }
  return out;
}

async function main(): Promise<void> {
  const timeline = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'timeline-')), 'hub.jsonl');
  const peer = await startServer(PEER, { distDir: DIST });
  const hub = await startHub(peer, timeline);
  const direct: number[] = [];
  const relayed: number[] = [];
  try {
    for (let i = 0; i < WARM; i++) await send(`${hub.url}/a2a/${AGENT}`);
    for (let i = 0; i < SENDS; i++) {
      direct.push(await send(`${peer.url}/a2a/echo`));
      relayed.push(await send(`${hub.url}/a2a/${AGENT}`));
    }
  } finally {
    await hub.stop();
    await peer.stop();
  }
  if (process.env.TIMELINE_KEEP) process.stderr.write(`timeline: ${timeline}\n`);
  const dir = path.dirname(timeline);
  const text = fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
  const all = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Timeline).slice(WARM);
  const keys = new Map<string, number[]>();
  const commitMs: number[] = [];
  for (const t of all) {
    for (const [k, at] of milestones(t)) keys.set(k, [...(keys.get(k) ?? []), at]);
    for (const [, label] of t.events) {
      const m = /commit ([\d.]+) ms/.exec(label);
      if (m) commitMs.push(Number(m[1]));
    }
  }
  const rows = [...keys].filter(([, at]) => at.length >= all.length / 2).map(([k, at]) => ({ milestone: k, medianMs: round(median(at), 2), in: at.length }));
  rows.sort((a, b) => a.medianMs - b.medianMs);
  const report = {
    peer: PEER,
    sends: all.length,
    load: os.loadavg().map((x) => round(x, 2)),
    directMs: { p50: round(percentile(direct, 50), 2), p99: round(percentile(direct, 99), 2) },
    relayedMs: { p50: round(percentile(relayed, 50), 2), p99: round(percentile(relayed, 99), 2) },
    hubServeMs: round(median(all.map((t) => t.ms)), 2),
    hubCpuMsWhileServing: round(median(all.map((t) => t.cpuMs)), 2),
    commitsPerEcho: round(commitMs.length / all.length, 2),
    commitMedianMs: round(median(commitMs), 3),
    milestones: rows,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main().catch((err) => {
  killAllServers();
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
