/**
 * A2A operations on a peer, in internal (v0.3-shaped) form whatever the wire version: the
 * method names and shapes of v0.3 and v1.0 are chosen here and converted
 * with lib/protocol's converters.
 */
import { rpcCall as jsonRpcCall, rpcStream as jsonRpcStream, UnreadableStreamError, type CallOptions, type RpcTarget } from './json-rpc';
import { restCall, restStream } from './rest-transport';
import { bindingOf, type Binding } from './endpoint-binding';
import { TransportError } from './http-transport';
import { mapPrefix } from './batch';
import type { Message, StreamEvent, Task } from '../protocol/types';
import { messageToV10, streamEventFromV10, taskFromV10 } from '../protocol/v10';
import { streamEventFromV03, taskFromV03 } from '../protocol/v03';

type Json = Record<string, unknown>;

const METHODS = {
  '0.3': { send: 'message/send', stream: 'message/stream', get: 'tasks/get', cancel: 'tasks/cancel', subscribe: 'tasks/resubscribe', list: 'tasks/list' },
  '1.0': { send: 'SendMessage', stream: 'SendStreamingMessage', get: 'GetTask', cancel: 'CancelTask', subscribe: 'SubscribeToTask', list: 'ListTasks' },
} as const;

type Call = (target: RpcTarget, method: string, params: unknown, opts: CallOptions) => Promise<unknown>;
/** Yields the results of one read together (a batch): json-rpc.ts httpStream. */
type Stream = (target: RpcTarget, method: string, params: unknown, opts: CallOptions) => AsyncGenerator<unknown[]>;

/**
 * The gRPC transport (grpc-js and the SDK's generated codec, ~4 MB of heap) is loaded by the
 * first call to a gRPC peer: a hub whose peers speak HTTP never loads it (decision 408).
 */
const grpcTransport = () => import('./grpc-transport');
const grpcCall: Call = async (target, method, params, opts) => (await grpcTransport()).grpcCall(target, method, params, opts);
async function* grpcStream(target: RpcTarget, method: string, params: unknown, opts: CallOptions): AsyncGenerator<unknown[]> {
  yield* (await grpcTransport()).grpcStream(target, method, params, opts);
}

/** Each binding's unary and streaming call: same v1.0 names and ProtoJSON on gRPC and HTTP+JSON; the endpoint says which (endpoint-binding.ts). */
const BINDINGS: Record<Binding, { call: Call; stream: Stream }> = {
  JSONRPC: { call: jsonRpcCall, stream: jsonRpcStream },
  GRPC: { call: grpcCall, stream: grpcStream },
  'HTTP+JSON': { call: restCall, stream: restStream },
};

/** The target with its per-call Authorization (decision 225), or as it is when it has none. */
async function authorized(target: RpcTarget, refused?: string): Promise<RpcTarget> {
  if (!target.authorization) return target;
  return { ...target, headers: { ...target.headers, Authorization: await target.authorization(refused) } };
}

/** A 401 answered to a per-call credential: worth one new credential and one more try. */
const refusedCredential = (target: RpcTarget, err: unknown): boolean => target.authorization !== undefined && err instanceof TransportError && err.status === 401;

const rpcCall: Call = async (target, method, params, opts) => {
  const call = (t: RpcTarget) => BINDINGS[bindingOf(t.endpoint)].call(t, method, params, opts);
  const first = await authorized(target);
  try {
    return await call(first);
  } catch (err) {
    if (!refusedCredential(target, err)) throw err;
    return call(await authorized(target, first.headers.Authorization));
  }
};

/** A stream refused with 401 is tried once more with a new credential (the refusal comes before any event). */
const rpcStream: Stream = async function* (target, method, params, opts) {
  if (!target.authorization) return yield* BINDINGS[bindingOf(target.endpoint)].stream(target, method, params, opts);
  const first = await authorized(target);
  let started = false;
  try {
    for await (const batch of BINDINGS[bindingOf(first.endpoint)].stream(first, method, params, opts)) {
      started = true;
      yield batch;
    }
  } catch (err) {
    if (started || !refusedCredential(target, err)) throw err;
    const again = await authorized(target, first.headers.Authorization);
    yield* BINDINGS[bindingOf(again.endpoint)].stream(again, method, params, opts);
  }
};

function asJson(value: unknown, what: string): Json {
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Json;
  throw new TransportError(`invalid ${what} from the peer: ${JSON.stringify(value)?.slice(0, 200)}`);
}

function toEvent(target: RpcTarget, result: unknown): StreamEvent {
  const json = asJson(result, 'event');
  const event = target.version === '1.0' ? streamEventFromV10(json) : streamEventFromV03(json);
  if (!event) throw new TransportError(`unrecognised event from the peer: ${JSON.stringify(result).slice(0, 200)}`);
  return event;
}

/** An event on a stream: one we cannot make out makes the stream unreadable (not the task failed). */
function streamedEvent(target: RpcTarget, result: unknown): StreamEvent {
  try {
    return toEvent(target, result);
  } catch (err) {
    throw err instanceof TransportError ? new UnreadableStreamError(err.message) : err;
  }
}

function toTask(target: RpcTarget, result: unknown): Task {
  const json = asJson(result, 'task');
  if (typeof json.id !== 'string') throw new TransportError(`task without an id from the peer: ${JSON.stringify(result).slice(0, 200)}`);
  return target.version === '1.0' ? taskFromV10(json) : taskFromV03(json);
}

function sendParams(target: RpcTarget, message: Message, blocking?: boolean): Json {
  if (target.version === '1.0') {
    return { message: messageToV10(message), ...(blocking === undefined ? {} : { configuration: { returnImmediately: !blocking } }) };
  }
  return { message, ...(blocking === undefined ? {} : { configuration: { blocking } }) };
}

/** message/send | SendMessage. Blocking waits for the peer's turn end or its response window. */
export async function sendMessage(target: RpcTarget, message: Message, blocking: boolean, opts: CallOptions): Promise<Task | Message> {
  const result = await rpcCall(target, METHODS[target.version].send, sendParams(target, message, blocking), opts);
  const event = toEvent(target, result);
  if (event.kind !== 'task' && event.kind !== 'message') throw new TransportError(`unexpected ${event.kind} in answer to a send`);
  return event;
}

/** A stream's results as events, a batch (one read's) at a time; the ones before an unreadable event come first. */
async function* streamedEvents(target: RpcTarget, batches: AsyncGenerator<unknown[]>): AsyncGenerator<StreamEvent[]> {
  for await (const batch of batches) {
    const { mapped, failure } = mapPrefix(batch, (result) => streamedEvent(target, result));
    if (mapped.length) yield mapped;
    if (failure) throw failure.error;
  }
}

/** message/stream | SendStreamingMessage: the events of one read together (a batch); opts.timeoutMs is an idle timeout. */
export function streamMessage(target: RpcTarget, message: Message, opts: CallOptions): AsyncGenerator<StreamEvent[]> {
  return streamedEvents(target, rpcStream(target, METHODS[target.version].stream, sendParams(target, message), opts));
}

/** tasks/resubscribe | SubscribeToTask: the events of one read together (a batch); opts.timeoutMs is an idle timeout. */
export function subscribeTask(target: RpcTarget, taskId: string, opts: CallOptions): AsyncGenerator<StreamEvent[]> {
  return streamedEvents(target, rpcStream(target, METHODS[target.version].subscribe, { id: taskId }, opts));
}

/** tasks/get | GetTask; `metadata` goes with the request (e.g. asking a Switchboard for the children). */
export async function getTask(target: RpcTarget, taskId: string, opts: CallOptions, metadata?: Record<string, unknown>): Promise<Task> {
  return toTask(target, await rpcCall(target, METHODS[target.version].get, metadata ? { id: taskId, metadata } : { id: taskId }, opts));
}

export async function cancelTask(target: RpcTarget, taskId: string, opts: CallOptions): Promise<Task> {
  return toTask(target, await rpcCall(target, METHODS[target.version].cancel, { id: taskId }, opts));
}

/** tasks/list | ListTasks for one context, with a little history to recognise our message. */
export async function listContextTasks(target: RpcTarget, contextId: string, opts: CallOptions): Promise<Task[]> {
  const result = asJson(await rpcCall(target, METHODS[target.version].list, { contextId, historyLength: 20, pageSize: 20 }, opts), 'task list');
  const tasks = Array.isArray(result.tasks) ? result.tasks : [];
  return tasks.map((t) => toTask(target, t));
}
