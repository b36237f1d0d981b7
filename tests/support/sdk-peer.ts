/**
 * A reference A2A peer built with @a2a-js/sdk 1.3.0's own server (DefaultRequestHandler, the
 * Express JSON-RPC handler with the v0.3 compatibility layer): a peer nobody here wrote, serving
 * v1.0 and v0.3 on one endpoint, for client and interop tests.
 *
 * Its agent streams a result as append:true artifact chunks. The text sets the pace:
 * "chunks 6 every 300ms" (defaults: 5 chunks, 200 ms apart); "ask" asks for input first.
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { TaskState, Role, type AgentCard, type Message, type Part } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';

export interface SdkPeer {
  url: string;
  /** The JSON-RPC endpoint (the card's interface URL). */
  endpoint: string;
  port: number;
  /** Headers of every JSON-RPC request received, in order (auth checks). */
  requests: { headers: Record<string, string | string[] | undefined> }[];
  close(): Promise<void>;
}

const text = (value: string): Part => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: '' });

function agentMessage(ctx: { taskId: string; contextId: string }, value: string): Message {
  return { messageId: randomUUID(), role: Role.ROLE_AGENT, parts: [text(value)], taskId: ctx.taskId, contextId: ctx.contextId, metadata: undefined, extensions: [], referenceTaskIds: [] };
}

function pace(input: string): { chunks: number; stepMs: number } {
  const chunks = Number(/chunks\s+(\d+)/i.exec(input)?.[1] ?? 5);
  const stepMs = Number(/every\s+(\d+)\s*ms/i.exec(input)?.[1] ?? 200);
  return { chunks, stepMs };
}

export const sdkChunkText = (i: number) => `sdk chunk ${i + 1}\n`;

class ChunkingExecutor implements AgentExecutor {
  private readonly canceled = new Set<string>();

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const ids = { taskId: ctx.taskId, contextId: ctx.contextId };
    const input = ctx.userMessage.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
    const status = (state: TaskState, message?: string) =>
      AgentEvent.statusUpdate({ ...ids, status: { state, message: message ? agentMessage(ids, message) : undefined, timestamp: new Date().toISOString() }, metadata: undefined });
    if (!ctx.task) {
      bus.publish(AgentEvent.task({ id: ctx.taskId, contextId: ctx.contextId, status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() }, artifacts: [], history: [ctx.userMessage], metadata: undefined }));
    } else {
      bus.publish(AgentEvent.task({ ...ctx.task, history: [...ctx.task.history, ctx.userMessage] }));
    }
    if (/\bask\b/i.test(input) && !ctx.task) {
      bus.publish(status(TaskState.TASK_STATE_INPUT_REQUIRED, 'What is your name?'));
      bus.finished();
      return;
    }
    const { chunks, stepMs } = pace(input);
    bus.publish(status(TaskState.TASK_STATE_WORKING, `working: ${chunks} chunks`));
    for (let i = 0; i < chunks; i++) {
      await new Promise((r) => setTimeout(r, stepMs));
      if (this.canceled.has(ctx.taskId)) return;
      const artifact = { artifactId: 'sdk-result', name: 'result', description: '', parts: [text(sdkChunkText(i))], metadata: undefined, extensions: [] };
      bus.publish(AgentEvent.artifactUpdate({ ...ids, artifact, append: i > 0, lastChunk: i === chunks - 1, metadata: undefined }));
    }
    bus.publish(status(TaskState.TASK_STATE_COMPLETED, ctx.task ? `hello, ${input}` : `done: ${chunks} chunks`));
    bus.finished();
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    this.canceled.add(taskId);
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId: '', status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: new Date().toISOString() }, metadata: undefined }));
    bus.finished();
  }
}

function card(baseUrl: string): AgentCard {
  const endpoint = `${baseUrl}/rpc`;
  return {
    name: 'SDK reference peer',
    description: 'An @a2a-js/sdk 1.3.0 server that streams its result in chunks.',
    version: '1.0.0',
    supportedInterfaces: [
      { url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
      { url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '0.3', tenant: '' },
    ],
    provider: undefined,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'chunks', name: 'Chunks', description: 'Streams a result in chunks.', tags: ['test'], examples: ['chunks 6 every 300ms'], inputModes: [], outputModes: [], securityRequirements: [] }],
    signatures: [],
  };
}

/** Starts the peer on a free loopback port (or `port`, to come back on the same one). */
export async function startSdkPeer(opts: { port?: number } = {}): Promise<SdkPeer> {
  const app = express();
  const requests: SdkPeer['requests'] = [];
  app.use('/rpc', (req, _res, next) => {
    requests.push({ headers: req.headers });
    next();
  });
  // Routes are mounted once listening: the card names the endpoint by its port.
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(opts.port ?? 0, '127.0.0.1', () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  const agentCard = card(baseUrl);
  const handler = new DefaultRequestHandler(agentCard, new InMemoryTaskStore(), new ChunkingExecutor());
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: async () => agentCard, legacyCompat: { enabled: true } }));
  app.use('/rpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat: { enabled: true } }));
  return {
    url: baseUrl,
    endpoint: `${baseUrl}/rpc`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
