/**
 * A real loopback HTTP server standing in for an operator's webhook (JSON or Slack-style) or a
 * push receiver: records every POST and answers with whatever status `respond` picks for it, or
 * never (`'hold'`: a slow receiver, the POST stays in flight until its sender gives up or dies,
 * or until the test answers it with `release`).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** The status we answered (null: held, never answered). */
  status: number | null;
  /** When it arrived (ms since the epoch). */
  at: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedHook[];
  /** Picks the answer for each request (default 200). */
  respond: (req: { path: string; body: Record<string, unknown>; nth: number }) => number | 'hold';
  /** Answers every held request with `status`; resolves once the answers are written. */
  release(status: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const held: http.ServerResponse[] = [];
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    respond: () => 200,
    release: async (status) => {
      const answering = held.splice(0).map((res) => new Promise<void>((resolve) => res.writeHead(status, { 'Content-Type': 'application/json' }).end('{}', () => resolve())));
      await Promise.all(answering);
    },
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('error', () => undefined); // a held request's sender died
    req.on('end', () => {
      const body = (raw ? JSON.parse(raw) : {}) as Record<string, unknown>;
      const path = req.url ?? '/';
      const status = receiver.respond({ path, body, nth: receiver.received.filter((r) => r.path === path).length + 1 });
      receiver.received.push({ path, headers: req.headers, body, status: status === 'hold' ? null : status, at: Date.now() });
      if (status === 'hold') held.push(res);
      else res.writeHead(status, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () => {
    server.closeAllConnections(); // held requests too
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return receiver;
}

/** A push delivery as received: its id (`<task>:<config>:<seq>`, the Idempotency-Key), seq and the task state it reports. */
export interface PushReceipt {
  key: string;
  seq: number;
  state: string;
  at: number;
}

/** The push notifications the receiver got (v0.3 bodies: the Task), in arrival order. */
export function pushReceipts(receiver: WebhookReceiver): PushReceipt[] {
  return receiver.received.map((r) => {
    const key = String(r.headers['idempotency-key']);
    return { key, seq: Number(key.split(':').at(-1)), state: (r.body.status as { state: string }).state, at: r.at };
  });
}
