/**
 * A minimal A2A v0.3 peer on node:http that can require a bearer token: it records the
 * Authorization header of every call, answers 401 with WWW-Authenticate when the token is
 * wrong, and completes each message/send at once with the text echoed as an artifact.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';

export interface TokenPeer {
  url: string;
  /** Authorization headers seen on JSON-RPC calls (null when absent), in order. */
  authorizations: (string | null)[];
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

function card(baseUrl: string, secured: boolean): Json {
  return {
    protocolVersion: '0.3.0',
    name: 'Token peer',
    description: 'Echoes, behind a bearer token.',
    url: `${baseUrl}/rpc`,
    preferredTransport: 'JSONRPC',
    version: '1.0.0',
    capabilities: { streaming: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Echoes.', tags: ['test'] }],
    ...(secured ? { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, security: [{ bearer: [] }] } : {}),
  };
}

function answer(body: Json): Json {
  const params = (body.params ?? {}) as Json;
  const message = (params.message ?? {}) as { parts?: { text?: string }[]; contextId?: string };
  const text = (message.parts ?? []).map((p) => p.text ?? '').join('');
  const contextId = message.contextId ?? randomUUID();
  const result = {
    kind: 'task',
    id: randomUUID(),
    contextId,
    status: { state: 'completed', timestamp: new Date().toISOString() },
    artifacts: [{ artifactId: 'echo', parts: [{ kind: 'text', text }] }],
    history: [],
  };
  return body.method === 'message/send'
    ? { jsonrpc: '2.0', id: body.id ?? null, result }
    : { jsonrpc: '2.0', id: body.id ?? null, error: { code: -32601, message: 'Method not found' } };
}

/** Starts the peer; with `token`, calls without `Authorization: Bearer <token>` get 401. */
export async function startTokenPeer(token?: string): Promise<TokenPeer> {
  const authorizations: (string | null)[] = [];
  let baseUrl = '';
  const server = http.createServer((req, res) => {
    if (req.method === 'GET') {
      if (req.url?.startsWith('/.well-known/agent')) res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(card(baseUrl, Boolean(token))));
      else res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      authorizations.push(req.headers.authorization ?? null);
      if (token && req.headers.authorization !== `Bearer ${token}`) {
        res.writeHead(401, { 'WWW-Authenticate': 'Bearer realm="token-peer"', 'Content-Type': 'application/json' }).end('{}');
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer(body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
