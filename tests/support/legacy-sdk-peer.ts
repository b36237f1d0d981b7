/**
 * Reference A2A peers built with older @a2a-js/sdk releases, installed side by side under npm
 * aliases: 0.3.14 (`a2a-sdk-0314`, A2A v0.3) and 0.2.5 (`a2a-sdk-025`, the pre-0.3 wire that
 * v0.3 kept). Peers nobody here wrote, speaking v0.3 JSON-RPC only: no tasks/list.
 *
 * The agent is the one tests/support/sdk-peer.ts runs on 1.3.0 (same text, same chunks), in
 * v0.3 shapes: "chunks 1 every 3000ms" is silent for 3 s, then answers; "ask" asks for input first.
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { AgentCard as Card0314, Message, TaskState } from 'a2a-sdk-0314';
import { A2AExpressApp as App0314 } from 'a2a-sdk-0314/server/express';
import { DefaultRequestHandler as Handler0314, InMemoryTaskStore as Store0314, type AgentExecutor, type ExecutionEventBus, type RequestContext } from 'a2a-sdk-0314/server';
import { A2AExpressApp as App025, DefaultRequestHandler as Handler025, InMemoryTaskStore as Store025, type AgentExecutor as Executor025 } from 'a2a-sdk-025/server';
import type { AgentCard as Card025 } from 'a2a-sdk-025';
import { closeServer, pace, requestRecorder, sdkChunkText, type SdkPeer, type SdkPeerOptions } from './sdk-peer';

export const LEGACY_SDKS = ['0.3.14', '0.2.5'] as const;
export type LegacySdk = (typeof LEGACY_SDKS)[number];

function agentMessage(ids: { taskId: string; contextId: string }, text: string): Message {
  return { kind: 'message', messageId: randomUUID(), role: 'agent', parts: [{ kind: 'text', text }], ...ids };
}

export class LegacyChunkingExecutor implements AgentExecutor {
  private readonly canceled = new Set<string>();

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const ids = { taskId: ctx.taskId, contextId: ctx.contextId };
    const input = ctx.userMessage.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');
    const status = (state: TaskState, text?: string, final = false) =>
      bus.publish({ kind: 'status-update', ...ids, status: { state, ...(text ? { message: agentMessage(ids, text) } : {}), timestamp: new Date().toISOString() }, final });
    bus.publish({ kind: 'task', id: ctx.taskId, contextId: ctx.contextId, status: { state: 'submitted', timestamp: new Date().toISOString() }, history: [...(ctx.task?.history ?? []), ctx.userMessage], artifacts: ctx.task?.artifacts ?? [] });
    // As on 1.3.0: "ask" asks first; the answer, in the same task, is greeted when it completes.
    if (/\bask\b/i.test(input) && !ctx.task) {
      status('input-required', 'What is your name?', true);
      bus.finished();
      return;
    }
    const { chunks, stepMs } = pace(input);
    status('working', `working: ${chunks} chunks`);
    for (let i = 0; i < chunks; i++) {
      await new Promise((r) => setTimeout(r, stepMs));
      if (this.canceled.has(ctx.taskId)) return;
      bus.publish({ kind: 'artifact-update', ...ids, artifact: { artifactId: 'sdk-result', name: 'result', parts: [{ kind: 'text', text: sdkChunkText(i) }] }, append: i > 0, lastChunk: i === chunks - 1 });
    }
    status('completed', ctx.task?.status.state === 'input-required' ? `hello, ${input}` : `done: ${chunks} chunks`, true);
    bus.finished();
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    this.canceled.add(taskId);
    bus.publish({ kind: 'status-update', taskId, contextId: '', status: { state: 'canceled', timestamp: new Date().toISOString() }, final: true });
    bus.finished();
  }
}

export function legacyCard(baseUrl: string, sdk: LegacySdk, streaming: boolean): Card0314 & Card025 {
  return {
    name: `SDK ${sdk} reference peer`,
    description: `An @a2a-js/sdk ${sdk} server that streams its result in chunks.`,
    url: baseUrl,
    protocolVersion: '0.3.0',
    preferredTransport: 'JSONRPC',
    version: '1.0.0',
    capabilities: { streaming, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'chunks', name: 'Chunks', description: 'Streams a result in chunks.', tags: ['test'] }],
  };
}

/**
 * Starts an @a2a-js/sdk 0.3.14 or 0.2.5 server on a free loopback port: its own Express app
 * (card at the standard path of its version, JSON-RPC at the root), the SDK's request handler.
 */
export async function startLegacySdkPeer(sdk: LegacySdk, opts: SdkPeerOptions = {}): Promise<SdkPeer> {
  const app = express();
  const { requests, middleware } = requestRecorder(opts);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(opts.port ?? 0, '127.0.0.1', () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  const agentCard = legacyCard(baseUrl, sdk, opts.streaming ?? true);
  const executor = new LegacyChunkingExecutor();
  if (sdk === '0.3.14') new App0314(new Handler0314(agentCard, new Store0314(), executor)).setupRoutes(app, '', [middleware]);
  else {
    // 0.2.5 predates the v0.3 types and brings its own Express 4 typings; the executor
    // contract and the Express app are the same at run time.
    const legacy = new App025(new Handler025(agentCard, new Store025(), executor as unknown as Executor025));
    legacy.setupRoutes(...([app, '', [middleware]] as unknown as Parameters<typeof legacy.setupRoutes>));
  }
  return {
    url: baseUrl,
    endpoint: baseUrl,
    port,
    requests,
    close: () => closeServer(server),
  };
}
