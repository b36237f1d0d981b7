/**
 * Which work runs in the event loop's long turns (a diagnosis tool, not loaded by the app).
 *
 *   SWITCHBOARD_TURN_TRACE=/tmp/turns NODE_OPTIONS="--import $PWD/bench/lib/turn-trace.mjs" npm run bench -- --only detach …
 *   npx tsx bench/turn-trace-summary.ts /tmp/turns/*.jsonl
 *
 * Active only in a `next start` process. A 1 ms interval timer fires once per loop iteration at
 * most: the time between two fires is one turn (timers, poll, check phases). A turn longer than
 * SWITCHBOARD_TURN_TRACE_MS (default 20) is written as a JSON line with the synchronous time of
 * the callbacks that ran in it: setImmediate / setTimeout callbacks (labelled by the frames that
 * scheduled them), socket reads (`data` on an accepted socket: requests; on a client socket:
 * PostgreSQL's answers), HTTP request handlers, and GC. What none of those covers (promise
 * continuations, libuv) is the turn's remainder, `other`.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { setImmediate, setInterval, setTimeout } from 'node:timers';

const dir = process.env.SWITCHBOARD_TURN_TRACE;
const isServer = /next[/\\]dist[/\\]bin[/\\]next$/.test(process.argv[1] ?? '') && process.argv.includes('start');
if (dir && isServer) start(dir);

function start(dir) {
  const longMs = Number(process.env.SWITCHBOARD_TURN_TRACE_MS ?? 20);
  fs.mkdirSync(dir, { recursive: true });
  const out = fs.openSync(path.join(dir, `turns-${process.pid}.jsonl`), 'a');
  const now = () => performance.now();
  /** Callbacks of at least 0.2 ms: [start, end, label], kept for the last few seconds. */
  let spans = [];
  const record = (s, label) => {
    const e = now();
    if (e - s >= 0.2) spans.push([s, e, label]);
  };

  /** Where a callback was scheduled: the first frames outside node: internals and this file. */
  const where = () => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 6;
    const stack = new Error().stack ?? '';
    Error.stackTraceLimit = limit;
    return stack
      .split('\n')
      .slice(2)
      .filter((l) => !/node:internal|turn-trace\.mjs|node-environment-extensions/.test(l))
      .slice(0, 2)
      .map((l) => l.trim().replace(/^at /, ''))
      .join(' < ');
  };

  const wrap = (kind, original) =>
    function (fn, ...rest) {
      if (typeof fn !== 'function') return original.call(this, fn, ...rest);
      const label = `${kind} ${where()}`;
      return original.call(
        this,
        function (...args) {
          const s = now();
          try {
            return fn.apply(this, args);
          } finally {
            record(s, label);
          }
        },
        ...rest,
      );
    };
  globalThis.setImmediate = wrap('immediate', setImmediate);
  globalThis.setTimeout = wrap('timeout', setTimeout);

  /** Times the listeners of `event` on every emitter of `proto`, labelled by `label(emitter)`. */
  const timeEvent = (proto, event, label) => {
    const emit = proto.emit;
    proto.emit = function (name, ...args) {
      if (name !== event) return emit.call(this, name, ...args);
      const s = now();
      try {
        return emit.call(this, name, ...args);
      } finally {
        record(s, label(this));
      }
    };
  };
  // An HTTP server's sockets are read by its parser (no 'data' events): time its 'request' handlers.
  timeEvent(http.Server.prototype, 'request', () => 'request handler');
  timeEvent(net.Socket.prototype, 'data', (socket) => (socket.server ? 'read: accepted socket (requests)' : 'read: client socket (PostgreSQL, peers)'));

  const gcs = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push([e.startTime, e.startTime + e.duration]);
  }).observe({ entryTypes: ['gc'] });

  let last = now();
  let ticks = 0;
  let maxMs = 0;
  const tick = () => {
    const t = now();
    const ms = t - last;
    ticks++;
    maxMs = Math.max(maxMs, ms);
    if (ms > longMs) {
      const parts = {};
      let covered = 0;
      for (const [s, e, label] of spans) {
        if (s < last || s >= t) continue;
        parts[label] = (parts[label] ?? 0) + (e - s);
        covered += e - s;
      }
      let gc = 0;
      for (const [s, e] of gcs) if (e > last && s < t) gc += Math.min(e, t) - Math.max(s, last);
      const top = Object.entries(parts)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([label, v]) => [label, Math.round(v * 10) / 10]);
      // us: the turn on the monotonic clock in µs, the clock of a V8 CPU profile's samples.
      const endUs = Number(process.hrtime.bigint() / 1000n);
      const us = [Math.round(endUs - ms * 1000), endUs];
      fs.writeSync(out, `${JSON.stringify({ at: Date.now(), us, ms: Math.round(ms * 10) / 10, gc: Math.round(gc * 10) / 10, other: Math.round((ms - covered - gc) * 10) / 10, top })}\n`);
    }
    spans = spans.filter((x) => x[0] >= t - 50);
    while (gcs.length && gcs[0][1] < t - 5000) gcs.shift();
    last = now();
  };
  const interval = setInterval(tick, 1);
  interval.unref();
  // A line every 5 s (`ticks`, the longest turn), so a trace without long turns shows it ran.
  const beat = setInterval(() => {
    fs.writeSync(out, `${JSON.stringify({ at: Date.now(), beat: true, ticks, maxMs: Math.round(maxMs * 10) / 10 })}\n`);
    ticks = 0;
    maxMs = 0;
  }, 5000);
  beat.unref();
}
