/**
 * A peer's stream is handed on a read at a time (decision 413): the events one read of the body
 * completed come as one batch, so a relayed stream's follower pays its per-step promises per read,
 * not per chunk; an unreadable event still comes after the events before it. A real HTTP server on
 * loopback writes the frames.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { rpcStream, UnreadableStreamError, type RpcTarget } from './json-rpc';

let server: http.Server | null = null;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = null;
});

const frame = (n: number) => `data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { n } })}\n\n`;
const frames = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => frame(from + i)).join('');

/** A peer that writes `body` in one write each, the next once the reader has had the previous one, then ends. */
async function peer(bodies: string[]): Promise<RpcTarget> {
  server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const next = (i: number) => {
      if (i === bodies.length) return res.end();
      res.write(bodies[i], () => setTimeout(() => next(i + 1), 20));
    };
    next(0);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, version: '1.0', headers: {} };
}

describe('a peer stream read in batches', () => {
  it('hands on the events of one read together, in order', async () => {
    const target = await peer([frames(1, 40), frames(41, 43)]);
    const batches: unknown[][] = [];
    for await (const batch of rpcStream(target, 'SendStreamingMessage', {}, { timeoutMs: 5_000 })) batches.push(batch);
    expect(batches.flat()).toEqual(Array.from({ length: 43 }, (_, i) => ({ n: i + 1 })));
    // 43 events in two writes arrive in a few reads, never one step per event.
    expect(batches.length).toBeLessThan(10);
    expect(Math.max(...batches.map((b) => b.length))).toBeGreaterThan(1);
  });

  it('hands on the events before an unreadable one, then fails', async () => {
    const target = await peer([`${frames(1, 3)}data: {not json\n\n${frame(4)}`]);
    const seen: unknown[] = [];
    const read = (async () => {
      for await (const batch of rpcStream(target, 'SendStreamingMessage', {}, { timeoutMs: 5_000 })) seen.push(...batch);
    })();
    await expect(read).rejects.toBeInstanceOf(UnreadableStreamError);
    expect(seen).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });
});
