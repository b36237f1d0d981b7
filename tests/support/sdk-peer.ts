/**
 * A reference A2A peer built with @a2a-js/sdk 1.3.0's own server (DefaultRequestHandler, the
 * Express JSON-RPC handler with the v0.3 compatibility layer): a peer nobody here wrote, serving
 * v1.0 and v0.3 on one endpoint, for client and interop tests; or only its HTTP+JSON (restHandler)
 * or gRPC server, with a card that lists nothing else.
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
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { A2AService, grpcService } from '@a2a-js/sdk/server/grpc';
import { Server as GrpcServer, ServerCredentials, type Metadata } from '@grpc/grpc-js';

export interface SdkPeer {
  url: string;
  /** The JSON-RPC endpoint (the card's interface URL). */
  endpoint: string;
  port: number;
  /** Every request received, in order: its headers (auth checks) and method (JSON-RPC, gRPC), or `VERB /path` (HTTP+JSON). */
  requests: { headers: Record<string, string | string[] | undefined>; method?: string }[];
  close(): Promise<void>;
}

export interface SdkPeerOptions {
  /** Listen on this port (to come back on the same one). */
  port?: number;
  /** The card's capabilities.streaming (default true); without it the SDK refuses to stream. */
  streaming?: boolean;
  /** The JSON-RPC versions the card lists, in order (default 1.0 then 0.3; 1.3.0 only). */
  versions?: ('1.0' | '0.3')[];
  /** Refuse non-blocking sends with -32602, as a peer that only holds calls would. */
  refuseNonBlocking?: boolean;
  /** Refuse tasks/resubscribe | SubscribeToTask with -32004 although the card offers streaming. */
  refuseSubscribe?: boolean;
  /** Take every message/send | SendMessage (the task runs) but never answer the call. */
  holdSends?: boolean;
  /** The card lists one HTTP+JSON 1.0 interface and no JSON-RPC one; the SDK's restHandler serves it at /rest. */
  restOnly?: boolean;
  /** The card lists one gRPC 1.0 interface and no JSON-RPC one; the SDK's own gRPC server serves it. */
  grpcOnly?: boolean;
  /** The card's securitySchemes, written as given (v1.0 ProtoJSON, e.g. `{oauth2SecurityScheme: …}`). */
  securitySchemes?: (baseUrl: string) => Record<string, unknown>;
  /** Runs on /rpc (after a request is recorded) and /rest, before the SDK handles it (an auth check). */
  guard?: express.RequestHandler;
  /** Mounts more routes on the peer's origin before its own (e.g. an OAuth2 provider), once its URL is known. */
  mount?: (app: express.Express, baseUrl: string) => void | Promise<void>;
}

type Json = Record<string, unknown>;

function isNonBlockingSend(body: Json): boolean {
  const config = (body.params as Json | undefined)?.configuration as Json | undefined;
  return ['message/send', 'SendMessage'].includes(String(body.method)) && (config?.blocking === false || config?.returnImmediately === true);
}

/**
 * Records each JSON-RPC request (its body already parsed), and refuses non-blocking sends if
 * asked. Mount `middleware` where the SDK's routes see it after their JSON parser.
 */
export function requestRecorder(opts: SdkPeerOptions): { requests: SdkPeer['requests']; middleware: express.RequestHandler } {
  const requests: SdkPeer['requests'] = [];
  const middleware: express.RequestHandler = (req, res, next) => {
    if (req.method !== 'POST') return next();
    const body = (req.body ?? {}) as Json;
    requests.push({ headers: req.headers, method: typeof body.method === 'string' ? body.method : undefined });
    if (opts.refuseNonBlocking && isNonBlockingSend(body)) {
      res.json({ jsonrpc: '2.0', id: body.id ?? null, error: { code: -32602, message: 'non-blocking sends are not supported here' } });
      return;
    }
    if (opts.holdSends && ['message/send', 'SendMessage'].includes(String(body.method))) {
      // The SDK handles the call; its answer goes nowhere and the connection stays open.
      const swallow = (() => res) as never;
      res.writeHead = swallow;
      res.write = (() => true) as never;
      res.end = swallow;
    }
    if (opts.refuseSubscribe && ['tasks/resubscribe', 'SubscribeToTask'].includes(String(body.method))) {
      res.json({ jsonrpc: '2.0', id: body.id ?? null, error: { code: -32004, message: 'subscribing is not supported here' } });
      return;
    }
    next();
  };
  return { requests, middleware };
}

const text = (value: string): Part => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: '' });

function agentMessage(ctx: { taskId: string; contextId: string }, value: string): Message {
  return { messageId: randomUUID(), role: Role.ROLE_AGENT, parts: [text(value)], taskId: ctx.taskId, contextId: ctx.contextId, metadata: undefined, extensions: [], referenceTaskIds: [] };
}

export function pace(input: string): { chunks: number; stepMs: number } {
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
      const status = { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() };
      bus.publish(AgentEvent.task({ id: ctx.taskId, contextId: ctx.contextId, status, artifacts: [], history: [ctx.userMessage], metadata: undefined }));
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

function card(baseUrl: string, opts: SdkPeerOptions, grpcTarget?: string): AgentCard {
  const endpoint = `${baseUrl}/rpc`;
  const versions = opts.versions ?? ['1.0', '0.3'];
  return {
    name: 'SDK reference peer',
    description: 'An @a2a-js/sdk 1.3.0 server that streams its result in chunks.',
    version: '1.0.0',
    supportedInterfaces: grpcTarget
      ? [{ url: grpcTarget, protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: '' }]
      : opts.restOnly
        ? [{ url: `${baseUrl}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: '' }]
        : versions.map((protocolVersion) => ({ url: endpoint, protocolBinding: 'JSONRPC', protocolVersion, tenant: '' })),
    provider: undefined,
    capabilities: { streaming: opts.streaming ?? true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: (opts.securitySchemes?.(baseUrl) ?? {}) as AgentCard['securitySchemes'],
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'chunks', name: 'Chunks', description: 'Streams a result in chunks.', tags: ['test'], examples: ['chunks 6 every 300ms'], inputModes: [], outputModes: [], securityRequirements: [] }],
    signatures: [],
  };
}

/** Closes a test peer's server, cutting open connections (streams) at once. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** Starts the peer on a free loopback port (or `port`, to come back on the same one). */
export async function startSdkPeer(opts: SdkPeerOptions = {}): Promise<SdkPeer> {
  const app = express();
  const { requests, middleware } = requestRecorder(opts);
  app.use('/rpc', express.json(), middleware);
  // Routes are mounted once listening: the card names the endpoint by its port.
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(opts.port ?? 0, '127.0.0.1', () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  const grpc = opts.grpcOnly ? await startGrpc() : null;
  await opts.mount?.(app, baseUrl);
  if (opts.guard) app.use(['/rpc', '/rest'], opts.guard);
  const agentCard = card(baseUrl, opts, grpc?.target);
  const handler = new DefaultRequestHandler(agentCard, new InMemoryTaskStore(), new ChunkingExecutor());
  grpc?.serve(handler, requests);
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: async () => agentCard, legacyCompat: { enabled: true } }));
  app.use('/rpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat: { enabled: true } }));
  if (opts.restOnly) {
    app.use('/rest', (req, _res, next) => {
      requests.push({ headers: req.headers, method: `${req.method} ${req.path}` });
      next();
    });
    app.use('/rest', restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  }
  return {
    url: baseUrl,
    endpoint: `${baseUrl}/rpc`,
    port,
    requests,
    close: async () => {
      grpc?.server.forceShutdown();
      await closeServer(server);
    },
  };
}

/** The SDK's gRPC server on a free loopback port; each call's metadata is recorded like an HTTP request's headers. */
async function startGrpc() {
  const server = new GrpcServer();
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))));
  return {
    server,
    target: `127.0.0.1:${port}`,
    serve(handler: DefaultRequestHandler, requests: SdkPeer['requests']) {
      const service = grpcService({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication });
      const recorded = Object.fromEntries(
        Object.entries(service).map(([name, fn]) => [
          name,
          (call: { metadata: Metadata }, ...rest: unknown[]) => {
            requests.push({ headers: call.metadata.getMap() as Record<string, string>, method: name });
            return (fn as (...args: unknown[]) => unknown)(call, ...rest);
          },
        ]),
      );
      server.addService(A2AService, recorded);
    },
  };
}
