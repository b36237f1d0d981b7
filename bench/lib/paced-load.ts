/**
 * A steady open-loop load: one request every 1000/rate ms, whether or not earlier ones have
 * answered (at most `maxInFlight` at once). autocannon's `overallRate` is not that: each
 * connection sends its share of the second as fast as it can and then waits for the next
 * second, so "100/s" arrives as one burst of 100 a second, and a server slower than the burst
 * sees fewer (the previous PostgreSQL runs reached 45 of 100/s that way). Latency counts from
 * when a request was due, so a stalled sender cannot hide a slow server.
 */
import http from 'node:http';
import { ID_SLOT } from './load';
import { Histogram } from './stats';

export interface PacedOptions {
  url: string;
  body: string;
  headers: Record<string, string>;
  rate: number;
  seconds: number;
  /** A response counts as good only if its body contains this. */
  expect: string;
  maxInFlight?: number;
  /** A connection per request (no keep-alive): behind a TCP balancer, each request then goes to the next instance. */
  connectionPerRequest?: boolean;
}

export interface PacedResult {
  good: number;
  bad: number;
  /** Good answers per second over the run. */
  rps: number;
  /** Due time → answer, ms. */
  latency: Histogram;
  /** Requests not sent because `maxInFlight` were still open. */
  skipped: number;
}

let runCounter = 0;

export async function pacedLoad(opts: PacedOptions): Promise<PacedResult> {
  const agent = new http.Agent({ keepAlive: !opts.connectionPerRequest, maxSockets: Infinity });
  const target = new URL(opts.url);
  const tag = `p${process.pid}-${++runCounter}`;
  const [head, tail] = opts.body.split(ID_SLOT);
  const maxInFlight = opts.maxInFlight ?? 200;
  const latency = new Histogram();
  const result = { good: 0, bad: 0, skipped: 0 };
  let inFlight = 0;
  let sent = 0;
  const total = Math.round(opts.rate * opts.seconds);
  const start = Date.now();
  const interval = 1000 / opts.rate;

  const send = (dueAt: number) =>
    new Promise<void>((resolve) => {
      const body = tail === undefined ? head : `${head}${tag}-${sent}${tail}`;
      const req = http.request(
        { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers: { ...opts.headers, 'content-length': Buffer.byteLength(body) } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            if (res.statusCode === 200 && text.includes(opts.expect)) result.good++;
            else if (result.bad++ === 0) process.stderr.write(`  ! bad response from ${opts.url}: ${res.statusCode} ${text.slice(0, 400)}\n`);
            latency.add(Date.now() - dueAt);
            resolve();
          });
        },
      );
      req.on('error', (error) => {
        if (result.bad++ === 0) process.stderr.write(`  ! request to ${opts.url} failed: ${error.message}\n`);
        resolve();
      });
      req.end(body);
    });

  const pending: Promise<void>[] = [];
  await new Promise<void>((done) => {
    const tick = () => {
      const now = Date.now();
      while (sent < total && start + sent * interval <= now) {
        const dueAt = start + sent * interval;
        sent++;
        if (inFlight >= maxInFlight) {
          result.skipped++;
          continue;
        }
        inFlight++;
        pending.push(send(dueAt).then(() => void inFlight--));
      }
      if (sent >= total) return done();
      setTimeout(tick, Math.max(0, start + sent * interval - Date.now()));
    };
    tick();
  });
  await Promise.all(pending);
  agent.destroy();
  return { ...result, rps: result.good / ((Date.now() - start) / 1000), latency };
}
