/**
 * A badly behaved A2A v0.3 peer (the relay's bad peers), one per path: `/garbage` answers every
 * call with HTML, `/stall` takes a send and never answers it, `/no-result` answers a WORKING
 * task and then denies knowing it (tasks/get: -32001). Its card offers no streaming, so a client
 * sends non-blocking and polls.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from './sdk-peer';

export const BAD_MODES = ['garbage', 'stall', 'no-result'] as const;
export type BadMode = (typeof BAD_MODES)[number];

export interface BadPeer {
  url: string;
  /** The URL of one misbehaviour. */
  at(mode: BadMode): string;
  /** JSON-RPC methods received, per mode. */
  calls: Record<BadMode, string[]>;
  /** Agent card reads, per mode. */
  cardReads: Record<BadMode, number>;
  close(): Promise<void>;
}

function card(base: string, mode: BadMode) {
  return {
    name: `bad peer (${mode})`,
    description: 'misbehaves',
    url: `${base}/${mode}`,
    version: '1.0.0',
    protocolVersion: '0.3.0',
    preferredTransport: 'JSONRPC',
    capabilities: { streaming: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  };
}

function readJson(req: http.IncomingMessage): Promise<{ id?: unknown; method?: string }> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      try {
        resolve(JSON.parse(body));
      } catch {
        resolve({});
      }
    });
  });
}

function answer(res: http.ServerResponse, id: unknown, payload: { result?: unknown; error?: unknown }): void {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: id ?? null, ...payload }));
}

export async function startBadPeer(): Promise<BadPeer> {
  const calls: BadPeer['calls'] = { garbage: [], stall: [], 'no-result': [] };
  const cardReads: BadPeer['cardReads'] = { garbage: 0, stall: 0, 'no-result': 0 };
  let base = '';
  const server = http.createServer(async (req, res) => {
    const mode = BAD_MODES.find((m) => req.url?.startsWith(`/${m}`));
    if (!mode) return void res.writeHead(404).end();
    if (req.method === 'GET' && req.url?.includes('.well-known')) {
      cardReads[mode]++;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return void res.end(JSON.stringify(card(base, mode)));
    }
    const body = await readJson(req);
    calls[mode].push(String(body.method));
    if (mode === 'garbage') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      return void res.end('<html><body>502 bad gateway, or so</body></html>');
    }
    if (mode === 'stall') return; // the connection stays open; nothing is ever answered
    if (body.method === 'message/send') {
      return answer(res, body.id, { result: { kind: 'task', id: 'vanishing', contextId: 'c', status: { state: 'working', timestamp: new Date().toISOString() } } });
    }
    answer(res, body.id, { error: { code: -32001, message: 'Task not found' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: base, at: (mode) => `${base}/${mode}`, calls, cardReads, close: () => closeServer(server) };
}
