/**
 * A v1.0 JSON-RPC peer shaped like Hermes's A2A server: it ignores
 * `returnImmediately` and holds SendMessage until its work is done (`hold N ms` in the text),
 * cannot stream, and lists tasks by context (ListTasks) without their message history. GetTask
 * answers the task as it stands. Real HTTP (rpc-peer.ts).
 */
import { randomUUID } from 'node:crypto';
import { startRpcPeer, type Json, type RpcPeer } from './rpc-peer';

export const HELD_RESULT = 'the held result';

interface Held {
  id: string;
  contextId: string;
  done: boolean;
}

function wire(task: Held): Json {
  const status = { state: task.done ? 'TASK_STATE_COMPLETED' : 'TASK_STATE_WORKING', timestamp: new Date().toISOString() };
  return { id: task.id, contextId: task.contextId, status, artifacts: task.done ? [{ artifactId: 'held', parts: [{ text: HELD_RESULT }] }] : [] };
}

export type HoldingPeer = RpcPeer;

export async function startHoldingPeer(): Promise<HoldingPeer> {
  const tasks = new Map<string, Held>();
  const card = (base: string) => ({ name: 'holder', description: 'holds the call', version: '1.0.0', supportedInterfaces: [{ url: `${base}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], capabilities: { streaming: false }, defaultInputModes: ['text'], defaultOutputModes: ['text'], skills: [] });
  return startRpcPeer(card, async (body, res, json) => {
    const params = (body.params ?? {}) as Json;
    const result = (value: unknown) => json({ jsonrpc: '2.0', id: body.id, result: value });
    switch (body.method) {
      case 'SendMessage': {
        const message = params.message as Json;
        const text = ((message.parts as Json[]) ?? []).map((p) => String(p.text ?? '')).join('');
        const task: Held = { id: randomUUID(), contextId: String(message.contextId ?? randomUUID()), done: false };
        tasks.set(task.id, task);
        await new Promise((r) => setTimeout(r, Number(/hold (\d+)\s*ms/.exec(text)?.[1] ?? 0)));
        task.done = true;
        // The caller may have given up: its socket is gone, and nothing more is written.
        if (!res.destroyed) result({ task: wire(task) });
        return;
      }
      case 'GetTask': {
        const task = tasks.get(String(params.id));
        return task ? result(wire(task)) : json({ jsonrpc: '2.0', id: body.id, error: { code: -32001, message: 'Task not found' } });
      }
      case 'ListTasks': {
        const listed = [...tasks.values()].filter((t) => t.contextId === params.contextId).map(wire);
        return result({ tasks: listed, nextPageToken: '', pageSize: listed.length, totalSize: listed.length });
      }
      default:
        return json({ jsonrpc: '2.0', id: body.id ?? null, error: { code: -32601, message: `Method not found: ${String(body.method)}` } });
    }
  });
}
