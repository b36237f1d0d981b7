/**
 * The A2A v1.0 gRPC binding (spec §10): a wire adapter onto the same operations as JSON-RPC and
 * HTTP+JSON (runOperation). Each call is authenticated from its metadata (`authorization` /
 * `x-api-key`, as the HTTP headers), gets the caller's scope at the agent its `tenant` names
 * (empty: the default agent), and its ProtoJSON request goes through the same params schemas.
 * Errors carry the §5.4 gRPC status and a google.rpc.Status with ErrorInfo in
 * `grpc-status-details-bin`; a caller that goes away (cancel, deadline) detaches like an HTTP one.
 */
import { Metadata, status as GrpcStatus, type sendUnaryData, type ServerUnaryCall, type ServerWritableStream, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { encodeGrpcStatusDetails } from '@a2a-js/sdk/errors/grpc';
import { authenticateInbound } from '../auth/api-keys';
import { callerScope } from '../db/task-scope';
import { cardOrigin } from './served-card';
import { defaultAgent, findAgent } from '../agents/registry';
import { A2A_ERRORS, A2AError } from '../protocol/errors';
import { A2A_GRPC_SERVICE, grpcMethodName, isUndecodable, type ProtoJson, type UndecodableRequest } from '../client/grpc-wire';
import { countSubscriber } from '../metrics/subscribers';
import { findMethod, type Operation } from './rpc-methods';
import { runOperation, type RpcContext } from './rpc-handlers';
import { asA2AError } from './operation-error';
import { requestedExtensions } from './requested-extensions';
import { inboundTrace } from './trace-headers';
import { acceptsV1Only } from './requested-version';
import { jsonDepth, MAX_JSON_DEPTH } from './json-depth';

type Request = ProtoJson | UndecodableRequest;
type Call = ServerUnaryCall<Request, ProtoJson> | ServerWritableStream<Request, ProtoJson>;

/** A refusal before the operation runs: an A2A error, or UNAUTHENTICATED (which A2A leaves to the transport). */
class Refusal {
  constructor(
    readonly code: GrpcStatus,
    readonly details: string,
  ) {}
}

interface ServiceError {
  code: GrpcStatus;
  details: string;
  metadata?: Metadata;
}

/** The §5.4 status, with the ErrorInfo reason in grpc-status-details-bin (how clients name the error). */
export function grpcError(err: A2AError | Refusal): ServiceError {
  if (err instanceof Refusal) return { code: err.code, details: err.details };
  const code = GrpcStatus[A2A_ERRORS[err.kind].status];
  const metadata = new Metadata();
  metadata.set('grpc-status-details-bin', encodeGrpcStatusDetails(code, err.message, err.reason, err.metadata));
  return { code, details: err.message, metadata };
}

/** The call's metadata as HTTP headers (text entries only), so auth, extensions and trace read it as they read a request. */
function metadataHeaders(metadata: Metadata): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(metadata.getMap())) {
    if (typeof value === 'string' && !key.endsWith('-bin')) headers.set(key, value);
  }
  return headers;
}

interface Prepared {
  op: Operation;
  params: ProtoJson;
  ctx: RpcContext;
  logContext: Record<string, unknown>;
}

/** The HTTP bindings' auth refusals (401, 403, 503) as the gRPC statuses of the same meaning. */
const AUTH_STATUS = { '401': GrpcStatus.UNAUTHENTICATED, '403': GrpcStatus.PERMISSION_DENIED, '503': GrpcStatus.UNAVAILABLE } as const;

/** Everything before the operation: decoding, auth, version, agent, bounds. */
async function prepare(call: Call, signal: AbortSignal): Promise<Prepared> {
  const name = grpcMethodName(call.getPath());
  const method = findMethod(name);
  if (!method || method.version !== '1.0') throw new Refusal(GrpcStatus.UNIMPLEMENTED, `no A2A method ${name}`);
  const headers = metadataHeaders(call.metadata);
  const request = call.request;
  // The agent first, as the HTTP bindings' paths name it: whether a caller may use it is part of auth.
  const tenant = !isUndecodable(request) && typeof request.tenant === 'string' ? request.tenant : '';
  const agent = tenant ? findAgent(tenant) : defaultAgent();
  if (!agent) throw new Refusal(GrpcStatus.NOT_FOUND, `no served agent "${tenant}" (tenant names the agent's slug)`);
  const auth = await authenticateInbound({ headers }, agent.slug);
  if (!auth.ok) throw new Refusal(AUTH_STATUS[auth.status], auth.message);
  const version = headers.get('a2a-version')?.trim() || null;
  if (!acceptsV1Only(version)) throw new A2AError('versionNotSupported', `A2A-Version ${version}; gRPC serves 1.0`);
  if (isUndecodable(request)) throw new A2AError('invalidRequest', request.undecodable);
  // Value and Struct fields (metadata, data parts) nest as the JSON bindings' bodies do, with the same bound.
  if (jsonDepth(JSON.stringify(request)) > MAX_JSON_DEPTH) throw new A2AError('invalidRequest', `the request nests deeper than ${MAX_JSON_DEPTH} levels`);
  const ctx: RpcContext = {
    agent,
    version: '1.0',
    caller: auth.caller,
    ownerName: auth.ownerName,
    scope: callerScope(agent.slug, auth.owner),
    extensions: requestedExtensions({ headers }),
    signal,
    trace: inboundTrace({ headers }),
    // gRPC carries no Host: the card's URLs come from SWITCHBOARD_PUBLIC_URL, else the HTTP port on loopback.
    baseUrl: cardOrigin(headers).url,
  };
  return { op: method.op, params: request, ctx, logContext: { agent: agent.slug, binding: 'GRPC', method: name, caller: auth.caller } };
}

/** An abort signal for the call: the client cancelled, its deadline passed, or the connection went. */
function callSignal(call: Call): AbortController {
  const controller = new AbortController();
  call.once('cancelled', () => controller.abort());
  return controller;
}

const failure = (err: unknown, logContext: Record<string, unknown>): ServiceError =>
  grpcError(err instanceof Refusal ? err : asA2AError(err, logContext));

async function unary(call: ServerUnaryCall<Request, ProtoJson>, callback: sendUnaryData<ProtoJson>): Promise<void> {
  const controller = callSignal(call);
  let logContext: Record<string, unknown> = { binding: 'GRPC', method: call.getPath() };
  try {
    const prepared = await prepare(call, controller.signal);
    logContext = prepared.logContext;
    const outcome = await runOperation(prepared.op, prepared.params, prepared.ctx);
    if (outcome.kind === 'stream') throw new Error(`${prepared.op} answered a stream on a unary method`);
    // A held blocking send: gRPC has no body to keep alive, so the answer simply comes at the window.
    const result = outcome.kind === 'held' ? await outcome.result : outcome.result;
    callback(null, (result ?? {}) as ProtoJson);
  } catch (err) {
    callback(failure(err, logContext));
  }
}

/** Waits until the stream's buffer has room (or the caller went away). */
function drained(call: ServerWritableStream<Request, ProtoJson>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      call.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    call.once('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

async function serverStream(call: ServerWritableStream<Request, ProtoJson>): Promise<void> {
  const controller = callSignal(call);
  let logContext: Record<string, unknown> = { binding: 'GRPC', method: call.getPath() };
  const uncount = countSubscriber('a2a');
  try {
    const prepared = await prepare(call, controller.signal);
    logContext = prepared.logContext;
    const outcome = await runOperation(prepared.op, prepared.params, prepared.ctx);
    if (outcome.kind !== 'stream') throw new Error(`${prepared.op} answered a result on a streaming method`);
    try {
      for await (const batch of outcome.events) {
        if (controller.signal.aborted) break;
        for (const event of batch) if (!call.write(event as ProtoJson)) await drained(call, controller.signal);
      }
    } finally {
      await outcome.events.return(undefined);
    }
    if (!controller.signal.aborted) call.end();
  } catch (err) {
    if (!controller.signal.aborted) call.emit('error', failure(err, logContext));
  } finally {
    uncount();
  }
}

/** The handlers for every method of A2A_GRPC_SERVICE: each streaming one streams, the rest are unary. */
export function a2aGrpcHandlers(): UntypedServiceImplementation {
  const handlers: UntypedServiceImplementation = {};
  for (const [key, method] of Object.entries(A2A_GRPC_SERVICE)) {
    handlers[key] = method.responseStream
      ? (call: ServerWritableStream<Request, ProtoJson>) => void serverStream(call)
      : (call: ServerUnaryCall<Request, ProtoJson>, callback: sendUnaryData<ProtoJson>) => void unary(call, callback);
  }
  return handlers;
}
