/**
 * The HTTP shell of a hand-written JSON-RPC test peer: its card on every GET, each POST's
 * JSON-RPC body handed to `rpc` with a helper that answers JSON. Real HTTP on a free loopback
 * port. The peers themselves (rendering-peer.ts, holding-peer.ts) only say what they answer.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from './sdk-peer';

export type Json = Record<string, unknown>;
export type SendJson = (body: unknown) => void;

export interface RpcPeer {
  url: string;
  close(): Promise<void>;
}

export async function startRpcPeer(card: (base: string) => Json, rpc: (body: Json, res: http.ServerResponse, json: SendJson) => unknown): Promise<RpcPeer> {
  let base = '';
  const server = http.createServer(async (req, res) => {
    const json: SendJson = (body) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET') return json(card(base));
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    await rpc(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json, res, json);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: base, close: () => closeServer(server) };
}
