/**
 * What a relay agent costs (docs/relay.md): the same requests to the @a2a-js/sdk
 * reference server (bench/ref-sdk) directly, and through a Switchboard relay agent in front of
 * it, interleaved so a slow moment of the machine hurts both sides alike.
 *
 * - blocking echo, one request at a time: latency p50 / p99 direct and relayed, and the
 *   difference (what the relay adds);
 * - a 2,000-chunk stream (SendStreamingMessage): chunks/s direct and relayed, and each stream's
 *   accumulated artifact is checked whole.
 *
 * The peer is the SDK reference server (`--peer ref-sdk`, default) or a second Switchboard
 * (`--peer switchboard`: its built-in echo and slow agents), the other peer kind the issue names.
 *
 *   npx tsx bench/relay.ts [--peer ref-sdk|switchboard] [--sends 300] [--streams 3] [--dist .next]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { A2A_HEADERS, expectedArtifact, sendBody, streamBody } from './lib/a2a';
import { readSse } from './lib/sse-client';
import { killAllServers, startServer, type RunningServer } from './lib/servers';
import { median, percentile, round } from './lib/stats';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const SENDS = Number(arg('sends', '300'));
const STREAMS = Number(arg('streams', '3'));
const DIST = arg('dist', '.next');
const PEER = arg('peer', 'ref-sdk') === 'switchboard' ? 'switchboard' : 'ref-sdk';
const CHUNKS = 2_000;
const SIZE = 32;

async function timedSend(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers: A2A_HEADERS, body: sendBody('hello relay', randomUUID()) });
  const body = (await res.json()) as { result?: { task?: { status?: { state?: string } }; status?: { state?: string } } };
  const state = body.result?.task?.status?.state ?? body.result?.status?.state;
  if (!/COMPLETED|completed/.test(String(state))) throw new Error(`${url}: expected a completed task, got ${JSON.stringify(body).slice(0, 300)}`);
  return performance.now() - started;
}

/** Chunks/s of one 2,000-chunk stream; throws unless the artifact arrived whole. */
async function timedStream(url: string): Promise<number> {
  let text = '';
  let chunks = 0;
  const started = performance.now();
  await readSse({
    url,
    method: 'POST',
    headers: { ...A2A_HEADERS, accept: 'text/event-stream' },
    body: streamBody(`work 0s chunks ${CHUNKS} size ${SIZE}`, randomUUID()),
    onFrame: (frame) => {
      const result = (JSON.parse(frame.data) as { result?: { artifactUpdate?: { artifact?: { parts?: { text?: string }[] } } } }).result;
      const parts = result?.artifactUpdate?.artifact?.parts;
      if (parts) {
        chunks++;
        text += parts.map((p) => p.text ?? '').join('');
      }
    },
  });
  const seconds = (performance.now() - started) / 1000;
  if (text !== expectedArtifact(CHUNKS, SIZE)) throw new Error(`${url}: the streamed artifact is not whole (${chunks} chunks, ${text.length} chars)`);
  return chunks / seconds;
}

function summary(ms: number[]) {
  return { p50: round(percentile(ms, 50), 1), p99: round(percentile(ms, 99), 1) };
}

async function main(): Promise<void> {
  const peer = await startServer(PEER, { distDir: DIST });
  let hub: RunningServer | undefined;
  try {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-bench-'));
    const config = {
      peers: [{ name: 'ref', url: `${peer.url}/a2a/echo` }, { name: 'ref-slow', url: `${peer.url}/a2a/slow` }],
      agents: [
        { slug: 'relay-echo', name: 'Relayed echo', relay: { peer: 'ref' }, responseWindowSeconds: 60 },
        { slug: 'relay-slow', name: 'Relayed chunks', relay: { peer: 'ref-slow' }, responseWindowSeconds: 60 },
      ],
    };
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
    hub = await startServer('switchboard', { distDir: DIST, env: { SWITCHBOARD_CONFIG: path.join(dir, 'config.json') } });
    const direct = { echo: `${peer.url}/a2a/echo`, slow: `${peer.url}/a2a/slow` };
    const relayed = { echo: `${hub.url}/a2a/relay-echo`, slow: `${hub.url}/a2a/relay-slow` };
    for (let i = 0; i < 30; i++) await Promise.all([timedSend(direct.echo), timedSend(relayed.echo)]); // warm-up
    const ms = { direct: [] as number[], relayed: [] as number[] };
    for (let i = 0; i < SENDS; i++) {
      ms.direct.push(await timedSend(direct.echo));
      ms.relayed.push(await timedSend(relayed.echo));
    }
    await timedStream(relayed.slow); // warm-up
    const rate = { direct: [] as number[], relayed: [] as number[] };
    for (let i = 0; i < STREAMS; i++) {
      rate.direct.push(await timedStream(direct.slow));
      rate.relayed.push(await timedStream(relayed.slow));
    }
    const d = summary(ms.direct);
    const r = summary(ms.relayed);
    const report = {
      at: new Date().toISOString(),
      peer: PEER,
      cores: os.cpus().length,
      loadavg: os.loadavg().map((l) => round(l, 2)),
      blockingEcho: { sends: SENDS, directMs: d, relayedMs: r, addedMs: { p50: round(r.p50 - d.p50, 1), p99: round(r.p99 - d.p99, 1) } },
      stream2000: { streams: STREAMS, directChunksPerSecond: round(median(rate.direct)), relayedChunksPerSecond: round(median(rate.relayed)), runs: { direct: rate.direct.map((x) => round(x)), relayed: rate.relayed.map((x) => round(x)) } },
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await hub?.stop();
    await peer.stop();
  }
}

main().catch((err) => {
  killAllServers();
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
