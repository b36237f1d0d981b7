/**
 * The one load tool for every server: autocannon, in-process, one worker (the machine has two
 * cores: one for the server under test, one for the load). Every response body is checked with
 * a cheap substring test, so a fast error page can never pass for throughput.
 */
// @ts-expect-error autocannon ships no type declarations
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  body: string;
  headers?: Record<string, string>;
  connections: number;
  /** Seconds; ignored when `amount` is set. */
  duration?: number;
  amount?: number;
  /** Requests per second over all connections (fixed-rate latency runs). */
  overallRate?: number;
  /** A response counts as good only if its body contains this. */
  expect: string;
  /** Called every second with the number of responses so far (for memory sampling). */
  onTick?: (done: number) => void;
}

export interface LoadResult {
  /** Good responses per second over the whole run. */
  rps: number;
  good: number;
  bad: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  durationSec: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
}

interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  latency: { p50: number; p90: number; p99: number; max: number; average: number };
  requests: { total: number };
}

/** Replaced in the body by a fresh id per request. */
export const ID_SLOT = '[<id>]';
let runCounter = 0;

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const runTag = `m${process.pid}-${++runCounter}`;
  let sent = 0;
  let good = 0;
  let bad = 0;
  let firstBad: string | undefined;
  const onResponse = (status: number, body: string) => {
    if (status === 200 && body.includes(opts.expect)) good++;
    else {
      bad++;
      firstBad ??= `${status} ${String(body).slice(0, 300)}`;
    }
  };
  const instance = autocannon({
    url: opts.url,
    connections: opts.connections,
    // autocannon rejects keys that are present but undefined
    ...(opts.amount !== undefined ? { amount: opts.amount } : { duration: opts.duration }),
    ...(opts.overallRate !== undefined ? { overallRate: opts.overallRate } : {}),
    timeout: 30,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...opts.headers },
        body: opts.body,
        // A fresh message id per request (autocannon's own idReplacement garbles the body).
        setupRequest: (req: { body: string }) => ({ ...req, body: opts.body.replace(ID_SLOT, `${runTag}-${++sent}`) }),
        onResponse,
      },
    ],
  });
  let ticker: NodeJS.Timeout | undefined;
  if (opts.onTick) ticker = setInterval(() => opts.onTick!(good + bad), 1000);
  const result: AutocannonResult = await new Promise((resolve, reject) => {
    instance.on('done', resolve);
    instance.on('error', reject);
  });
  if (ticker) clearInterval(ticker);
  if (firstBad) process.stderr.write(`  ! ${bad} bad responses from ${opts.url}; first: ${firstBad}\n`);
  return {
    rps: good / result.duration,
    good,
    bad,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    durationSec: result.duration,
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max, mean: result.latency.average },
  };
}
