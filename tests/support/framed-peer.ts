/**
 * An @a2a-js/sdk 0.3.14 peer (its own request handler and JSON-RPC transport handler, the agent
 * of tests/support/legacy-sdk-peer.ts) whose event streams are framed in a way of its own:
 * - 'record-separator': every `data:` payload starts with U+001E, as VoltAgent's A2A server
 *   writes them (`data: \u001E{json}`, @voltagent/server-hono's a2a routes);
 * - 'garbage': the stream sends one event that is not JSON and closes (the task goes on at the
 *   peer and is answered by tasks/get and message/send as usual).
 * It records the methods called, so a test sees how the client fell back.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DefaultRequestHandler, InMemoryTaskStore, JsonRpcTransportHandler } from 'a2a-sdk-0314/server';
import { LegacyChunkingExecutor, legacyCard } from './legacy-sdk-peer';
import { closeServer } from './sdk-peer';

export type Framing = 'record-separator' | 'garbage';

export interface FramedPeer {
  url: string;
  /** JSON-RPC methods called, in order. */
  methods: string[];
  close(): Promise<void>;
}

function readBody(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

async function writeStream(res: http.ServerResponse, events: AsyncGenerator<unknown>, framing: Framing): Promise<void> {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  for await (const event of events) {
    if (framing === 'garbage') {
      res.end('data: <html><body>502 Bad Gateway</body></html>\n\n');
      // The task goes on at the peer: drain the generator so the executor is not held.
      void (async () => {
        for await (const rest of events) void rest;
      })();
      return;
    }
    res.write(`data: \u001E${JSON.stringify(event)}\n\n`);
  }
  res.end();
}

export async function startFramedPeer(framing: Framing): Promise<FramedPeer> {
  const methods: string[] = [];
  let baseUrl = '';
  let rpc: JsonRpcTransportHandler | null = null;
  const server = http.createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(legacyCard(baseUrl, '0.3.14', true)));
      return;
    }
    void (async () => {
      const body = (await readBody(req)) as { method?: string };
      methods.push(String(body.method));
      const answer = await rpc!.handle(body);
      if (Symbol.asyncIterator in answer) return writeStream(res, answer as AsyncGenerator<unknown>, framing);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  rpc = new JsonRpcTransportHandler(new DefaultRequestHandler(legacyCard(baseUrl, '0.3.14', true), new InMemoryTaskStore(), new LegacyChunkingExecutor()));
  return {
    url: baseUrl,
    methods,
    close: () => closeServer(server),
  };
}
