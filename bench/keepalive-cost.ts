/**
 * What the SSE keepalive costs (every stream hears from us at least every 4 s).
 * Starts the built app (`.next`, or --dist DIR) and, for each keepalive interval asked for,
 * measures the server's CPU over a quiet window with no stream, then with N dashboard feed
 * streams open and idle (nothing but keepalives flows; every SSE stream, A2A or dashboard, runs
 * the same timer-and-write per stream). Prints CPU (% of one core) and RSS for each.
 *
 *   npx tsx bench/keepalive-cost.ts [--streams 1000] [--seconds 20] [--intervals 3,1] [--dist .next]
 */
import http from 'node:http';
import { startServer, killAllServers } from './lib/servers';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const STREAMS = Number(option('streams', '1000'));
const SECONDS = Number(option('seconds', '20'));
const INTERVALS = option('intervals', '3').split(',').map(Number);
const DIST = option('dist', '.next');

/** Opens `count` feed streams and resolves once each has its headers; counts keepalive bytes. */
async function openFeeds(url: string, count: number): Promise<{ keepalives: () => number; close: () => void }> {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const requests: http.ClientRequest[] = [];
  let keepalives = 0;
  await Promise.all(
    Array.from({ length: count }, () =>
      new Promise<void>((resolve, reject) => {
        const req = http.get(`${url}/api/feed`, { agent }, (res) => {
          res.on('data', (chunk: Buffer) => (keepalives += chunk.toString().split(': keepalive').length - 1));
          res.on('error', () => undefined);
          resolve();
        });
        req.on('error', reject);
        requests.push(req);
      }),
    ),
  );
  return { keepalives: () => keepalives, close: () => requests.forEach((r) => r.destroy()) };
}

async function cpuOver(server: { cpuSeconds(): number }, seconds: number): Promise<number> {
  const before = server.cpuSeconds();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  return ((server.cpuSeconds() - before) / seconds) * 100;
}

async function measure(intervalSeconds: number): Promise<void> {
  const server = await startServer('switchboard', { distDir: DIST, env: { SWITCHBOARD_SSE_KEEPALIVE: String(intervalSeconds), SWITCHBOARD_LOG_LEVEL: 'warn' } });
  try {
    await new Promise((r) => setTimeout(r, 3000)); // start-up work settles
    const idle = await cpuOver(server, SECONDS);
    const feeds = await openFeeds(server.url, STREAMS);
    await new Promise((r) => setTimeout(r, 2000));
    const sent = feeds.keepalives();
    const open = await cpuOver(server, SECONDS);
    const perSecond = (feeds.keepalives() - sent) / SECONDS;
    console.log(
      `keepalive ${intervalSeconds} s, ${STREAMS} idle streams: server CPU ${open.toFixed(2)} % of a core (no streams: ${idle.toFixed(2)} %), ` +
        `${perSecond.toFixed(0)} keepalives/s received, RSS ${server.rssMb().toFixed(0)} MB`,
    );
    feeds.close();
  } finally {
    await server.stop();
  }
}

process.on('SIGINT', () => {
  killAllServers();
  process.exit(130);
});
async function main(): Promise<void> {
  for (const interval of INTERVALS) await measure(interval);
}
void main();
