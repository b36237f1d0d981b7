/**
 * The evidence behind decision 160 (v0.3 `tasks/resubscribe` on a task waiting for input stays
 * open until the task is terminal): what the reference servers do. A task asks for input, a
 * client subscribes, then answers it. @a2a-js/sdk 1.3.0 keeps the subscription open and carries
 * the answer's turn to completed, over its v0.3 method as over its v1.0 one; 0.3.14 sends the
 * snapshot and closes at once (its event bus for the task is gone once a turn ends). If either
 * changes, the decision's evidence has changed.
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AExpressApp } from 'a2a-sdk-0314/server/express';
import { DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor, type ExecutionEventBus, type RequestContext } from 'a2a-sdk-0314/server';
import { closeServer, startSdkPeer, type SdkPeer } from '../support/sdk-peer';
import { legacyCard } from '../support/legacy-sdk-peer';

/** Asks on the first turn, completes on the answer (0.3.14 shapes). */
class AskExecutor implements AgentExecutor {
  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const ids = { taskId: ctx.taskId, contextId: ctx.contextId };
    bus.publish({ kind: 'task', id: ctx.taskId, contextId: ctx.contextId, status: { state: 'submitted', timestamp: new Date().toISOString() }, history: [...(ctx.task?.history ?? []), ctx.userMessage], artifacts: [] });
    bus.publish({ kind: 'status-update', ...ids, status: { state: ctx.task ? 'completed' : 'input-required', timestamp: new Date().toISOString() }, final: true });
    bus.finished();
  }

  async cancelTask(): Promise<void> {}
}

let peer130: SdkPeer;
let server0314: Server;
let url0314: string;

beforeAll(async () => {
  peer130 = await startSdkPeer();
  const app = express();
  server0314 = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  url0314 = `http://127.0.0.1:${(server0314.address() as AddressInfo).port}`;
  new A2AExpressApp(new DefaultRequestHandler(legacyCard(url0314, '0.3.14', true), new InMemoryTaskStore(), new AskExecutor())).setupRoutes(app, '');
});
afterAll(async () => {
  await peer130?.close();
  if (server0314) await closeServer(server0314);
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function rpc(url: string, method: string, params: unknown, v10: boolean): Promise<Json> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(v10 ? { 'A2A-Version': '1.0' } : {}) }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return (await res.json()) as Json;
}

/** Asks, subscribes, answers: the states the subscription carried, and whether it closed before the answer. */
async function scenario(url: string, v10: boolean): Promise<{ states: string[]; closedBeforeAnswer: boolean }> {
  const message = (text: string, taskId?: string) =>
    v10 ? { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...(taskId ? { taskId } : {}) } : { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...(taskId ? { taskId } : {}) };
  const sent = await rpc(url, v10 ? 'SendMessage' : 'message/send', { message: message('ask') }, v10);
  const task = (v10 ? sent.result.task : sent.result) as Json;
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', ...(v10 ? { 'A2A-Version': '1.0' } : {}) }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: v10 ? 'SubscribeToTask' : 'tasks/resubscribe', params: { id: task.id } }) });
  const reader = res.body!.getReader();
  let text = '';
  let answered = false;
  let closedBeforeAnswer = false;
  const reading = (async () => {
    for (let step = await reader.read(); !step.done; step = await reader.read()) text += Buffer.from(step.value).toString();
    closedBeforeAnswer = !answered;
  })();
  // The subscription's first frame (the snapshot) has arrived before the answer goes out.
  while (!text.includes('\n\n')) await new Promise((r) => setTimeout(r, 20));
  answered = true;
  await rpc(url, v10 ? 'SendMessage' : 'message/send', { message: message('Ada', task.id) }, v10);
  await reading;
  const states = text
    .split('\n')
    .filter((l) => l.startsWith('data:'))
    .map((l) => JSON.parse(l.slice(5)).result as Json)
    .map((r) => (r.task ?? r.statusUpdate ?? r).status?.state as string | undefined)
    .filter((s): s is string => Boolean(s));
  return { states, closedBeforeAnswer };
}

describe('reference servers: subscribing to a task waiting for input, then answering it', () => {
  it('@a2a-js/sdk 1.3.0, v0.3 tasks/resubscribe: stays open and carries the completion', async () => {
    const { states, closedBeforeAnswer } = await scenario(peer130.endpoint, false);
    expect(closedBeforeAnswer).toBe(false);
    expect(states[0]).toBe('input-required');
    expect(states.at(-1)).toBe('completed');
  });

  it('@a2a-js/sdk 1.3.0, v1.0 SubscribeToTask: stays open and carries the completion', async () => {
    const { states, closedBeforeAnswer } = await scenario(peer130.endpoint, true);
    expect(closedBeforeAnswer).toBe(false);
    expect(states.at(-1)).toBe('TASK_STATE_COMPLETED');
  });

  it('@a2a-js/sdk 0.3.14, v0.3 tasks/resubscribe: the snapshot, then closed at once', async () => {
    const { states, closedBeforeAnswer } = await scenario(url0314, false);
    expect(states).toEqual(['input-required']);
    expect(closedBeforeAnswer).toBe(true);
  });
});
