/**
 * Three Switchboards in a delegation chain (the delegation graph's check): A's launched agent dispatches
 * through A to B (a configured peer of A), B's launched agent dispatches through B to C (a peer
 * of B), and C's echo agent answers. Each instance is a real `next start` with its own SQLite
 * data dir; `otlpUrl` points all three at one OTLP/HTTP receiver. The launched agents are
 * tests/fixtures/agents/delegate.mjs (real child processes). Open mode on loopback, so the
 * fixture can watch its child through its hub's task API.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp, type AppServer } from './app-server';

export interface HopChain {
  a: AppServer;
  b: AppServer;
  c: AppServer;
  stop(): Promise<void>;
}

const DELEGATE = path.resolve('tests/fixtures/agents/delegate.mjs');

function configFile(name: string, nextHop: { peer: string; url: string }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `switchboard-hop-${name}-`));
  const config = {
    agents: [{ slug: 'delegator', name: `Delegator ${name}`, launcher: { type: 'process', command: [DELEGATE, nextHop.url] } }],
    peers: [{ name: nextHop.peer, url: nextHop.url }],
  };
  const file = path.join(dir, 'switchboard.json');
  fs.writeFileSync(file, JSON.stringify(config));
  return file;
}

export async function startHopChain(opts: { otlpUrl?: string; env?: Record<string, string> } = {}): Promise<HopChain> {
  const tracing = (service: string): Record<string, string> =>
    opts.otlpUrl ? { OTEL_EXPORTER_OTLP_ENDPOINT: opts.otlpUrl, OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_SERVICE_NAME: service } : {};
  const common = { SWITCHBOARD_RESPONSE_WINDOW: '60', ...opts.env };
  const c = await startApp({ ...common, ...tracing('hop-c') });
  const b = await startApp({ ...common, ...tracing('hop-b'), SWITCHBOARD_CONFIG: configFile('b', { peer: 'hop-c', url: `${c.url}/a2a/echo` }) });
  const a = await startApp({ ...common, ...tracing('hop-a'), SWITCHBOARD_CONFIG: configFile('a', { peer: 'hop-b', url: `${b.url}/a2a/delegator` }) });
  return {
    a,
    b,
    c,
    async stop() {
      await Promise.all([a.stop(), b.stop(), c.stop()]);
    },
  };
}
