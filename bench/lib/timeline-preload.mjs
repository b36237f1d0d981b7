/**
 * Wall-clock timeline of each request a relaying hub serves (bench/relay-timeline.ts): loaded
 * with `--import` into a hub only (SWITCHBOARD_TIMELINE=file), it notes, relative to the moment
 * an inbound A2A request arrived, when each outbound HTTP call to the peer started, got its
 * headers and ended, when each SQLite transaction ran and for how long, and when
 * the inbound response finished, with the process's CPU time over the same span. Node-level
 * hooks only (http, better-sqlite3, which the build keeps external), so any build can be timed
 * as it is. Sequential requests only: every event is attributed to the one open inbound request.
 */
import dc from 'node:diagnostics_channel';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const out = process.env.SWITCHBOARD_TIMELINE;
if (out) install(out);

function install(file) {
  let current = null;
  const now = () => performance.now();
  const note = (label) => {
    if (current) current.events.push([Math.round((now() - current.t0) * 100) / 100, label]);
  };
  const lines = [];
  process.on('exit', () => fs.writeFileSync(`${file}.${process.pid}`, lines.join('\n')));
  // The bench stops its servers with SIGTERM: the timeline is written then (no drain needed here).
  process.on('SIGTERM', () => process.exit(0));

  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (name, req, res) {
    if (name === 'request' && req.method === 'POST' && /\/a2a\//.test(req.url)) {
      const entry = { url: req.url, t0: now(), cpu0: process.cpuUsage(), events: [] };
      current = entry;
      res.once('finish', () => {
        note('inbound response finished');
        const cpu = process.cpuUsage(entry.cpu0);
        lines.push(JSON.stringify({ url: entry.url, ms: now() - entry.t0, cpuMs: (cpu.user + cpu.system) / 1000, events: entry.events }));
        // Work after the answer (the caller's end, follow-ups) stays attributed to this request.
      });
    }
    return emit.apply(this, arguments);
  };

  // diagnostics_channel sees every client request, however the module was imported.
  dc.subscribe('http.client.request.start', ({ request: req }) => {
    const what = `${req.method} ${req.path}`.slice(0, 60);
    note(`out ${what} start`);
    req.once('response', (res) => {
      note(`out ${what} headers ${res.statusCode}`);
      // No 'data' listener: it would switch the body to flowing mode under the reader's feet.
      res.once('end', () => note(`out ${what} end`));
    });
  });

  // When the client code asked for the request (its socket write comes later, on a tick).
  const request = http.request;
  http.request = function (...args) {
    note('out request called');
    return request.apply(this, args);
  };

  const require = createRequire(`${process.cwd()}/package.json`);
  const Database = require('better-sqlite3');
  const transaction = Database.prototype.transaction;
  let depth = 0;
  Database.prototype.transaction = function (fn) {
    const tx = transaction.call(this, fn);
    const timed = function (...args) {
      if (depth++ > 0) {
        try {
          return tx.apply(this, args);
        } finally {
          depth--;
        }
      }
      const started = now();
      try {
        return tx.apply(this, args);
      } finally {
        depth--;
        note(`commit ${(now() - started).toFixed(2)} ms`);
      }
    };
    for (const k of ['deferred', 'immediate', 'exclusive']) timed[k] = tx[k];
    return timed;
  };
}
