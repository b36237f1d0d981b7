/**
 * A v0.3 peer that streams its reply in text chunks under one artifactId and then reports a final
 * task (tasks/get) shaped as the message asks, as peers met in the field do:
 * - `render new-ids`: the final task holds the whole reply once, under a new artifactId (Hermes
 *   mints a new id each time it renders its reply);
 * - `render keep-ids`: the final task holds the whole reply under the streamed id;
 * - `render no-artifacts`: the final task carries no artifacts at all;
 * - `render doubled`: the final task holds every chunk twice (a2a-python 0.3.26 after a resubscribe).
 * `chunks N` sets how many chunks are streamed (default 4). Real HTTP (rpc-peer.ts).
 */
import type http from 'node:http';
import { randomUUID } from 'node:crypto';
import { startRpcPeer, type Json, type RpcPeer } from './rpc-peer';

export const STREAMED_ID = 'streamed-reply';
export const renderedChunk = (i: number) => `part ${i} of the reply. `;

export type RenderingPeer = RpcPeer;

interface Reply {
  id: string;
  contextId: string;
  chunks: string[];
  render: string;
  done: boolean;
}

function finalArtifacts(reply: Reply): Json[] {
  const whole = reply.chunks.join('');
  switch (reply.render) {
    case 'new-ids':
      return [{ artifactId: `rendered-${randomUUID()}`, parts: [{ kind: 'text', text: whole }] }];
    case 'no-artifacts':
      return [];
    case 'doubled':
      return [{ artifactId: STREAMED_ID, parts: reply.chunks.flatMap((text) => [{ kind: 'text', text }, { kind: 'text', text }]) }];
    default:
      return [{ artifactId: STREAMED_ID, parts: [{ kind: 'text', text: whole }] }];
  }
}

function taskOf(reply: Reply): Json {
  const state = reply.done ? 'completed' : 'working';
  return { kind: 'task', id: reply.id, contextId: reply.contextId, status: { state, timestamp: new Date().toISOString() }, history: [], artifacts: reply.done ? finalArtifacts(reply) : [] };
}

function stream(reply: Reply, id: unknown, res: http.ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  const write = (result: Json) => res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`);
  const ids = { taskId: reply.id, contextId: reply.contextId };
  write(taskOf(reply));
  reply.chunks.forEach((text, i) => {
    write({ kind: 'artifact-update', ...ids, artifact: { artifactId: STREAMED_ID, parts: [{ kind: 'text', text }] }, append: i > 0, lastChunk: i === reply.chunks.length - 1 });
  });
  reply.done = true;
  write({ kind: 'status-update', ...ids, status: { state: 'completed', timestamp: new Date().toISOString() }, final: true });
  res.end();
}

export async function startRenderingPeer(): Promise<RenderingPeer> {
  const replies = new Map<string, Reply>();
  const card = (base: string) => ({ name: 'renderer', description: 'streams, then renders', url: `${base}/a2a`, protocolVersion: '0.3.0', version: '1.0.0', capabilities: { streaming: true }, defaultInputModes: ['text'], defaultOutputModes: ['text'], skills: [] });
  return startRpcPeer(card, (body, res, json) => {
    const params = (body.params ?? {}) as Json;
    if (body.method === 'message/stream') {
      const message = params.message as Json;
      const text = ((message.parts as Json[]) ?? []).map((p) => String(p.text ?? '')).join('');
      const count = Number(/chunks (\d+)/.exec(text)?.[1] ?? 4);
      const reply: Reply = { id: randomUUID(), contextId: String(message.contextId ?? randomUUID()), chunks: Array.from({ length: count }, (_, i) => renderedChunk(i)), render: /render (\S+)/.exec(text)?.[1] ?? 'keep-ids', done: false };
      replies.set(reply.id, reply);
      return stream(reply, body.id, res);
    }
    if (body.method === 'tasks/get') {
      const reply = replies.get(String(params.id));
      return json(reply ? { jsonrpc: '2.0', id: body.id, result: taskOf(reply) } : { jsonrpc: '2.0', id: body.id, error: { code: -32001, message: 'Task not found' } });
    }
    json({ jsonrpc: '2.0', id: body.id ?? null, error: { code: -32601, message: `Method not found: ${String(body.method)}` } });
  });
}
