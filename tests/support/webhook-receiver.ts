/**
 * A real loopback HTTP server standing in for an operator's webhook (JSON or Slack-style):
 * records every POST and answers with whatever status `respond` picks for it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** The status we answered. */
  status: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedHook[];
  /** Picks the answer for each request (default 200). */
  respond: (req: { path: string; body: Record<string, unknown>; nth: number }) => number;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = { url: '', received: [], respond: () => 200, close: async () => undefined };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = (raw ? JSON.parse(raw) : {}) as Record<string, unknown>;
      const path = req.url ?? '/';
      const status = receiver.respond({ path, body, nth: receiver.received.filter((r) => r.path === path).length + 1 });
      receiver.received.push({ path, headers: req.headers, body, status });
      res.writeHead(status, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}
