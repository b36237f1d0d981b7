/**
 * Runs one JSON-RPC operation against the engine and renders the result in the caller's
 * protocol version. Streaming operations return an async iterable of wire results.
 */
import { cancel, getTask, isAcceptingWork, resubscribe, startSend, streamMessage, type GenerationWait, type SendRequest, type StreamBatch } from '../engine';
import type { ServedAgent } from '../agent-runner';
import type { CallerScope } from '../db/task-scope';
import { listInboundTasks } from './list-tasks';
import { A2AError } from '../protocol/errors';
import type { StreamEvent, Task } from '../protocol/types';
import { streamEventToV10, taskToV10 } from '../protocol/v10';
import { describeIssue, ListTasksSchema, PushDeleteSchemas, PushGetSchemas, PushListSchemas, PushSetSchemas, SendSchemas, TaskIdSchema, TaskQuerySchema } from './params';
import { assertWebhookAllowed, getPushConfig, listTaskPushConfigs, removePushConfig, setPushConfig } from '../push/push-configs';
import type { SendParams } from './params';
import { pushConfigToWire } from './push-wire';
import { assertRequiredExtensions } from './requested-extensions';
import { assertInputModes } from './input-modes';
import type { Operation, ProtocolVersion } from './rpc-methods';
import { servedCard } from './served-card';
import { countedStream } from './stream-quota';
import { admitNewTask, admitRequest } from '../quotas/caller-quotas';
import type { z } from 'zod';
import type { TraceContext } from '../protocol/trace-context';

export interface RpcContext {
  agent: ServedAgent;
  version: ProtocolVersion;
  /** The caller's name (API key name, "anonymous", "self"). */
  caller: string;
  /** How the dashboard names the caller's owner (the key's name, "anonymous"). */
  ownerName: string;
  /** What the caller may reach: its own inbound tasks at this agent. Every task-scoped call passes it. */
  scope: CallerScope;
  /** The extension URIs the request names (A2A-Extensions); required ones gate messages. */
  extensions: readonly string[];
  signal: AbortSignal;
  /** W3C trace context from the request's traceparent/tracestate headers. */
  trace?: TraceContext;
  /** The request's Last-Event-ID header: a subscription resumes after that generation. */
  lastEventId?: string | null;
  /** The origin the request reached (served-card.ts cardOrigin): the extended card's URLs and `jku`. */
  baseUrl: string;
}

/** The longest a GetTask long poll is held (well inside every client's timeouts). */
const MAX_GENERATION_WAIT_SECONDS = 60;

/**
 * GetTask as a bounded long poll (the generation extension): `metadata.switchboard.
 * waitForGenerationAfter: N` answers once the task's generation passes N (or it is terminal),
 * at most `waitSeconds` (default and bound 60 s).
 */
function generationWait(metadata: Record<string, unknown> | undefined, signal: AbortSignal): GenerationWait | undefined {
  const sb = metadata?.switchboard;
  if (!sb || typeof sb !== 'object') return undefined;
  const { waitForGenerationAfter: after, waitSeconds = MAX_GENERATION_WAIT_SECONDS } = sb as Record<string, unknown>;
  if (after === undefined) return undefined;
  if (typeof after !== 'number' || !Number.isSafeInteger(after) || after < 0) throw new A2AError('invalidParams', 'params.metadata.switchboard.waitForGenerationAfter: expected a whole number >= 0');
  if (typeof waitSeconds !== 'number' || !(waitSeconds > 0) || waitSeconds > MAX_GENERATION_WAIT_SECONDS) {
    throw new A2AError('invalidParams', `params.metadata.switchboard.waitSeconds: expected seconds > 0 and <= ${MAX_GENERATION_WAIT_SECONDS}`);
  }
  return { after, ms: waitSeconds * 1000, signal };
}

/**
 * Where a subscription resumes (the generation extension): `metadata.switchboard.afterGeneration`
 * in the params, else the Last-Event-ID header; a whole number, or the field is named.
 */
function resumeAfter(metadata: Record<string, unknown> | undefined, lastEventId: string | null | undefined): number | undefined {
  const sb = metadata?.switchboard;
  const given = sb && typeof sb === 'object' ? (sb as Record<string, unknown>).afterGeneration : undefined;
  if (given !== undefined) {
    if (typeof given !== 'number' || !Number.isSafeInteger(given) || given < 0) throw new A2AError('invalidParams', 'params.metadata.switchboard.afterGeneration: expected a whole number >= 0');
    return given;
  }
  if (lastEventId === null || lastEventId === undefined || lastEventId === '') return undefined;
  if (!/^\d{1,15}$/.test(lastEventId)) throw new A2AError('invalidParams', 'Last-Event-ID: expected a generation (a whole number >= 0)');
  return Number(lastEventId);
}

/**
 * A stream's results come in batches: the events that committed together (see StreamBatch). A
 * blocking send whose task exists is `held`: its answer is still to come, and nothing can be
 * refused any more, so the HTTP layer may send headers before it (held-response.ts).
 */
export type RpcOutcome = { kind: 'result'; result: unknown } | { kind: 'stream'; events: AsyncGenerator<unknown[]> } | { kind: 'held'; result: Promise<unknown> };

function parse<T>(schema: z.ZodType<T>, params: unknown): T {
  const parsed = schema.safeParse(params ?? {});
  if (!parsed.success) throw new A2AError('invalidParams', describeIssue(parsed.error));
  return parsed.data;
}

const renderTask = (task: Task, v: ProtocolVersion) => (v === '1.0' ? taskToV10(task) : task);
const renderEvent = (event: StreamEvent, v: ProtocolVersion) => (v === '1.0' ? streamEventToV10(event) : event);

async function* render(batches: AsyncGenerator<StreamBatch>, v: ProtocolVersion): AsyncGenerator<unknown[]> {
  try {
    for await (const batch of batches) yield batch.map((event) => renderEvent(event, v));
  } finally {
    await batches.return(undefined);
  }
}

/** Builds the engine request; an inline push config is checked before any task is created. */
async function sendRequest(p: SendParams, ctx: RpcContext): Promise<SendRequest> {
  assertRequiredExtensions(ctx.agent, ctx.extensions);
  assertInputModes(ctx.agent, p.partMediaTypes);
  const push = p.push;
  if (push) assertWebhookAllowed(push.url);
  if (!p.message.taskId) await admitNewTask(ctx.caller, ctx.scope.owner);
  return {
    agent: ctx.agent,
    message: p.message,
    scope: ctx.scope,
    ownerName: ctx.ownerName,
    peer: ctx.caller,
    historyLength: p.historyLength,
    metadata: p.metadata,
    signal: ctx.signal,
    trace: ctx.trace,
    onTaskCreated: push ? (taskId) => setPushConfig(ctx.scope, taskId, push, ctx.version) : undefined,
  };
}

function refuseWhenDraining(): void {
  if (!isAcceptingWork()) throw new A2AError('internal', 'server is shutting down; not accepting new work');
}

type Handler = (params: unknown, ctx: RpcContext, v: RpcContext['version']) => Promise<RpcOutcome>;

/** One handler per A2A operation, in both versions (the Record makes a missing one a type error). */
const HANDLERS: Record<Operation, Handler> = {
  send: async (params, ctx, v) => {
    refuseWhenDraining();
    const p = parse(SendSchemas[v], params);
    const answering = await startSend(await sendRequest(p, ctx), p.blocking ? 'blocking' : 'non-blocking');
    // A Task, or the agent's direct Message: v1.0 wraps either ({task} | {message}).
    const result = answering().then((answer) => (v === '1.0' ? streamEventToV10(answer) : answer));
    return p.blocking ? { kind: 'held', result } : { kind: 'result', result: await result };
  },
  stream: async (params, ctx, v) => {
    refuseWhenDraining();
    const p = parse(SendSchemas[v], params);
    const request = await sendRequest(p, ctx);
    return { kind: 'stream', events: countedStream(ctx.caller, ctx.scope.owner, ctx.signal, () => render(streamMessage(request), v)) };
  },
  get: async (params, ctx, v) => {
    const p = parse(TaskQuerySchema, params);
    const wait = generationWait(p.metadata, ctx.signal);
    return { kind: 'result', result: renderTask(await getTask(p.id, ctx.scope, p.historyLength, p.metadata, wait), v) };
  },
  list: async (params, ctx, v) => {
    const p = parse(ListTasksSchema, params);
    return { kind: 'result', result: await listInboundTasks(ctx.scope, p, v) };
  },
  cancel: async (params, ctx, v) => {
    const p = parse(TaskIdSchema, params);
    return { kind: 'result', result: renderTask(await cancel(p.id, ctx.scope), v) };
  },
  subscribe: async (params, ctx, v) => {
    const p = parse(TaskIdSchema, params);
    const after = resumeAfter(p.metadata, ctx.lastEventId);
    return { kind: 'stream', events: countedStream(ctx.caller, ctx.scope.owner, ctx.signal, () => render(resubscribe(p.id, ctx.scope, v, ctx.signal, after), v)) };
  },
  pushSet: async (params, ctx, v) => {
    const p = parse(PushSetSchemas[v], params);
    return { kind: 'result', result: pushConfigToWire(await setPushConfig(ctx.scope, p.taskId, p.config, v), v) };
  },
  pushGet: async (params, ctx, v) => {
    const p = parse(PushGetSchemas[v], params);
    return { kind: 'result', result: pushConfigToWire(await getPushConfig(ctx.scope, p.taskId, p.id), v) };
  },
  pushList: async (params, ctx, v) => {
    const p = parse(PushListSchemas[v], params);
    const configs = (await listTaskPushConfigs(ctx.scope, p.taskId)).map((c) => pushConfigToWire(c, v));
    return { kind: 'result', result: v === '1.0' ? { configs, nextPageToken: '' } : configs };
  },
  pushDelete: async (params, ctx, v) => {
    const p = parse(PushDeleteSchemas[v], params);
    await removePushConfig(ctx.scope, p.taskId, p.id);
    return { kind: 'result', result: null };
  },
  // Every caller that reaches a handler passed authenticateInbound: with API keys or OIDC issuers
  // that is an authenticated caller; in open mode everyone is, and sees the extended card (decision 206).
  extendedCard: async (_params, ctx, v) => {
    if (!ctx.agent.extendedSkills) {
      // v1.0: not declared on the card is UnsupportedOperation (§3.1.11); v0.3 has only -32007.
      throw new A2AError(v === '1.0' ? 'unsupportedOperation' : 'extendedCardNotConfigured', 'this agent has no extended card (config: extendedSkills)');
    }
    const card = await servedCard(ctx.agent, ctx.baseUrl, { isDefault: false, generation: v === '1.0' ? '1.0' : 'dual', extended: true });
    return { kind: 'result', result: card };
  },
};

/** Every A2A call of every binding (JSON-RPC, HTTP+JSON, gRPC) comes through here, so the request quota is counted once here. */
export async function runOperation(op: Operation, params: unknown, ctx: RpcContext): Promise<RpcOutcome> {
  await admitRequest(ctx.caller, ctx.scope.owner);
  return HANDLERS[op](params, ctx, ctx.version);
}
