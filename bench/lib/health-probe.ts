/**
 * `GET /api/health` one request at a time, in a process of its own (forked by
 * bench/lib/detach-burst.ts), so that the bench's own burst of thousands of sends does not delay
 * the clock that times the probe: what it measures is what a load balancer's probe would see.
 *
 * Protocol (IPC): the parent sends `{ url, pauseMs }`; this process probes until it receives
 * `{ finish: true }`, then answers `{ samples: [{ at, ms, ok }] }` (`at`: epoch ms when the
 * request was sent, `ms`: time to the whole answer) and exits.
 */
import http from 'node:http';

export interface HealthSample {
  at: number;
  ms: number;
  ok: boolean;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function probe(url: string): Promise<HealthSample> {
  const at = Date.now();
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.get(`${url}/api/health`, { agent, timeout: 30_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ at, ms: performance.now() - started, ok: res.statusCode === 200 }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ at, ms: performance.now() - started, ok: false }));
  });
}

async function main(url: string, pauseMs: number, finished: () => boolean): Promise<HealthSample[]> {
  const samples: HealthSample[] = [];
  while (!finished()) {
    samples.push(await probe(url));
    await new Promise((r) => setTimeout(r, pauseMs));
  }
  return samples;
}

if (process.send) {
  let finish = false;
  process.on('message', (msg: { url?: string; pauseMs?: number; finish?: boolean }) => {
    if (msg.finish) {
      finish = true;
      return;
    }
    if (!msg.url) return;
    void main(msg.url, msg.pauseMs ?? 20, () => finish).then((samples) => {
      process.send!({ samples }, () => process.exit(0));
    });
  });
}
