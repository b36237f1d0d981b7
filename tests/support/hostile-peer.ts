/**
 * A hostile A2A v0.3 peer: its card offers streaming, message/send answers a
 * WORKING task, and tasks/resubscribe opens an event stream that sends `streamBytes` bytes
 * without a single line break. tasks/get answers the task completed, so a client that falls
 * back to polling still gets the result. It counts what it managed to send before the client
 * hung up.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostilePeer {
  url: string;
  /** Bytes of the no-newline stream written before each stream closed. */
  streamsSent: number[];
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(64 * 1024, 'a');

function task(id: string, state: 'working' | 'completed') {
  return {
    kind: 'task',
    id,
    contextId: 'hostile-ctx',
    status: { state, timestamp: new Date().toISOString() },
    ...(state === 'completed' ? { artifacts: [{ artifactId: 'out', parts: [{ kind: 'text', text: 'polled result' }] }] } : {}),
  };
}

/** Writes `total` bytes with backpressure; resolves with what was written when it stopped. */
function flood(res: http.ServerResponse, total: number): Promise<number> {
  return new Promise((resolve) => {
    let sent = 0;
    let done = false;
    const finish = () => !done && ((done = true), resolve(sent));
    res.on('close', finish);
    const pump = () => {
      while (!done && sent < total) {
        sent += CHUNK.length;
        if (!res.write(CHUNK)) return void res.once('drain', pump);
      }
      if (sent >= total) res.end(finish);
    };
    pump();
  });
}

export async function startHostilePeer(streamBytes = 48 * 1024 * 1024): Promise<HostilePeer> {
  const streamsSent: number[] = [];
  let baseUrl = '';
  const server = http.createServer((req, res) => {
    if (req.method === 'GET') {
      const card = { protocolVersion: '0.3.0', name: 'Hostile', url: `${baseUrl}/rpc`, preferredTransport: 'JSONRPC', capabilities: { streaming: true }, skills: [] };
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(card));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: unknown; method: string; params?: { id?: string } };
      const reply = (result: unknown) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }));
      if (body.method === 'message/send') return reply(task('hostile-task', 'working'));
      if (body.method === 'tasks/get') return reply(task(body.params?.id ?? 'hostile-task', 'completed'));
      if (body.method === 'tasks/resubscribe') {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.write('data: ');
        void flood(res, streamBytes).then((sent) => streamsSent.push(sent));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'Method not found' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    streamsSent,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
