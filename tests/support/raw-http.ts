/**
 * HTTP requests with headers fetch will not send (Host, Sec-Fetch-Site) and raw sockets for
 * clients that misbehave on purpose (headers never finished).
 */
import http from 'node:http';
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: () => Record<string, unknown>;
}

export function rawRequest(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** JSON-RPC over rawRequest (so Host, Origin and Sec-Fetch-* can be anything). */
export function rawRpc(url: string, method: string, params: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
}

/** A socket that sends `prefix` and then nothing; resolves when the server closes it. */
export function stalledSocket(port: number, prefix: string): { closed: Promise<string> } {
  const socket = net.connect(port, '127.0.0.1', () => {
    if (prefix) socket.write(prefix);
  });
  let received = '';
  socket.on('data', (d) => (received += d.toString()));
  socket.on('error', () => undefined);
  return { closed: new Promise((resolve) => socket.on('close', () => resolve(received))) };
}
