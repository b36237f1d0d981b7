/**
 * A v0.3 peer shaped like @voltagent/a2a-server as met in the field: its card lives at a
 * non-standard path (`/.well-known/volt/agent-card.json`) while the origin serves another
 * agent's card; its results (tasks, updates, messages) carry no `kind`; it serves message/send,
 * message/stream and tasks/get, but no tasks/resubscribe and no tasks/list.
 *
 * Its agent works silently for the time its text asks ("wait 3000ms"), then completes with one
 * artifact. Real HTTP on a free loopback port; every request is recorded.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { closeServer } from './sdk-peer';

type Json = Record<string, unknown>;

export const VOLT_RESULT = 'volt result';

export interface KindlessPeer {
  url: string;
  /** The card's own URL (non-standard). */
  cardUrl: string;
  endpoint: string;
  /** Every request: method, path, its A2A-Version header and, for POSTs, the JSON-RPC method. */
  requests: { method: string; path: string; a2aVersion?: string; rpc?: string }[];
  close(): Promise<void>;
}

interface StoredTask {
  id: string;
  contextId: string;
  status: Json;
  history: Json[];
  artifacts: Json[];
}

function withoutKind(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutKind);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value as Json).filter(([k]) => k !== 'kind').map(([k, v]) => [k, withoutKind(v)]));
}

const agentMessage = (task: StoredTask, text: string) => ({ role: 'agent', messageId: randomUUID(), taskId: task.id, contextId: task.contextId, parts: [{ text }] });

class KindlessAgent {
  readonly tasks = new Map<string, StoredTask>();
  private readonly done = new Map<string, Promise<void>>();
  private readonly listeners = new Map<string, ((event: Json) => void)[]>();

  start(message: Json): StoredTask {
    const task: StoredTask = { id: randomUUID(), contextId: String(message.contextId ?? randomUUID()), status: { state: 'working', timestamp: new Date().toISOString() }, history: [message], artifacts: [] };
    this.tasks.set(task.id, task);
    const text = ((message.parts as Json[] | undefined) ?? []).map((p) => String(p.text ?? '')).join('');
    const waitMs = Number(/wait\s+(\d+)\s*ms/i.exec(text)?.[1] ?? 0);
    this.done.set(task.id, new Promise<void>((resolve) => setTimeout(() => this.finish(task, resolve), waitMs)));
    return task;
  }

  private finish(task: StoredTask, resolve: () => void): void {
    const artifact = { artifactId: 'volt-result', parts: [{ text: VOLT_RESULT }] };
    task.artifacts = [artifact];
    task.status = { state: 'completed', message: agentMessage(task, 'done'), timestamp: new Date().toISOString() };
    for (const listener of this.listeners.get(task.id) ?? []) {
      listener({ taskId: task.id, contextId: task.contextId, artifact, lastChunk: true });
      listener({ taskId: task.id, contextId: task.contextId, status: task.status, final: true });
    }
    this.listeners.delete(task.id);
    resolve();
  }

  whenDone(id: string): Promise<void> {
    return this.done.get(id) ?? Promise.resolve();
  }

  listen(id: string, listener: (event: Json) => void): void {
    this.listeners.set(id, [...(this.listeners.get(id) ?? []), listener]);
  }
}

async function readBody(req: http.IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json;
  } catch {
    return {};
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

function card(base: string, name: string, path: string) {
  return { name, description: `a ${name} agent`, url: `${base}${path}`, protocolVersion: '0.3.0', version: '1.0.0', capabilities: { streaming: true }, defaultInputModes: ['text'], defaultOutputModes: ['text'], skills: [] };
}

async function serveRpc(agent: KindlessAgent, body: Json, res: http.ServerResponse): Promise<void> {
  const id = body.id ?? null;
  const params = (body.params ?? {}) as Json;
  const result = (value: unknown) => sendJson(res, 200, { jsonrpc: '2.0', id, result: withoutKind(value) });
  const error = (code: number, message: string) => sendJson(res, 200, { jsonrpc: '2.0', id, error: { code, message } });
  switch (body.method) {
    case 'message/send': {
      const task = agent.start(params.message as Json);
      if ((params.configuration as Json | undefined)?.blocking !== false) await agent.whenDone(task.id);
      return result(task);
    }
    case 'message/stream': {
      const task = agent.start(params.message as Json);
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      const write = (event: unknown) => res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result: withoutKind(event) })}\n\n`);
      write({ ...task });
      agent.listen(task.id, (event) => {
        write(event);
        if (event.final) res.end();
      });
      return;
    }
    case 'tasks/get': {
      const task = agent.tasks.get(String(params.id));
      return task ? result(task) : error(-32001, 'Task not found');
    }
    default:
      return error(-32601, `Method not found: ${String(body.method)}`);
  }
}

export interface KindlessPeerOptions {
  /** Answer a card request that carries `A2A-Version` with 400, as a strict v0.3 server might. */
  refuseVersionHeader?: boolean;
}

/** Starts the peer on a free loopback port. */
export async function startKindlessPeer(opts: KindlessPeerOptions = {}): Promise<KindlessPeer> {
  const agent = new KindlessAgent();
  const requests: KindlessPeer['requests'] = [];
  let base = '';
  const server = http.createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', base).pathname;
    const a2aVersion = req.headers['a2a-version'] as string | undefined;
    const entry: KindlessPeer['requests'][number] = { method: req.method ?? '', path, ...(a2aVersion ? { a2aVersion } : {}) };
    requests.push(entry);
    if (req.method === 'GET' && a2aVersion && opts.refuseVersionHeader) return sendJson(res, 400, { error: { code: -32009, message: `version ${a2aVersion} is not supported` } });
    if (req.method === 'GET' && path === '/.well-known/volt/agent-card.json') return sendJson(res, 200, card(base, 'volt', '/a2a/volt'));
    if (req.method === 'GET' && path === '/.well-known/agent-card.json') return sendJson(res, 200, card(base, 'origin', '/a2a/origin'));
    if (req.method === 'POST' && path === '/a2a/volt') {
      const body = await readBody(req);
      entry.rpc = String(body.method);
      return serveRpc(agent, body, res);
    }
    sendJson(res, 404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    cardUrl: `${base}/.well-known/volt/agent-card.json`,
    endpoint: `${base}/a2a/volt`,
    requests,
    close: () => closeServer(server),
  };
}
