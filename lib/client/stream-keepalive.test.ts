/**
 * A stream the reader leaves once its final event is read keeps its connection (decision 402):
 * the rest of the body drains instead of the response being destroyed, so the next call to the
 * peer (a relay's confirming GetTask, the next turn) reuses the socket. A rest that does not end
 * is still cut. A real HTTP server on loopback counts the connections.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { rpcStream, type RpcTarget } from './json-rpc';

let server: http.Server | null = null;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = null;
});

const frame = (id: number) => `data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { n: id } })}\n\n`;

/** A peer streaming two events, then (after `thenMs`) ending the stream, or never when `endless`. */
async function peer(opts: { endless?: boolean }) {
  const connections: unknown[] = [];
  server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(frame(1) + frame(2));
    if (!opts.endless) setImmediate(() => res.end());
  });
  server.on('connection', (socket) => connections.push(socket));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const target: RpcTarget = { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, version: '1.0', headers: {} };
  return { target, connections };
}

/** Reads one event and leaves the stream, as a follower does at a final event. */
async function firstEvent(target: RpcTarget): Promise<unknown> {
  for await (const results of rpcStream(target, 'SendStreamingMessage', {}, { timeoutMs: 5_000 })) return results[0];
  return undefined;
}

const freeSockets = () => Object.values(http.globalAgent.freeSockets).flat().length;

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('a stream left after its final event', () => {
  it('drains its rest and its socket serves the next call', async () => {
    const { target, connections } = await peer({});
    const before = freeSockets();
    expect(await firstEvent(target)).toEqual({ n: 1 });
    await until(() => freeSockets() > before); // back in the keep-alive pool
    expect(await firstEvent(target)).toEqual({ n: 1 });
    expect(connections).toHaveLength(1);
  });

  it('is cut when its rest does not end', async () => {
    const { target, connections } = await peer({ endless: true });
    expect(await firstEvent(target)).toEqual({ n: 1 });
    const socket = connections[0] as import('node:net').Socket;
    await until(() => socket.destroyed); // within the drain's bound
    expect(socket.destroyed).toBe(true);
  });
});
