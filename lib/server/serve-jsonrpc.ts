/**
 * The A2A JSON-RPC endpoint over HTTP: auth, body limit, envelope checks, dispatch, and SSE for
 * streaming methods. JSON-RPC errors go out with HTTP 200 (the A2A specification); a missing or bad
 * credential gets 401 with WWW-Authenticate; never a stack trace or an HTML page.
 */
import type { ServedAgent } from '../agent-runner';
import { authenticateInbound } from '../auth/api-keys';
import { callerScope } from '../db/task-scope';
import { getSettings } from '../config/settings';
import { A2AError, retryAfterHeaders, toJsonRpcError } from '../protocol/errors';
import { readRequestJson } from './read-body';
import { acceptsVersionHeader, findMethod, STREAMING_OPS, type Operation, type ProtocolVersion } from './rpc-methods';
import { toProtoJsonNames } from '../protocol/proto-json-names';
import { isJsonMediaType } from './media-type';
import { isV1, requestedVersion } from './requested-version';
import { MAX_JSON_DEPTH } from './json-depth';
import { requestedExtensions } from './requested-extensions';
import { runOperation } from './rpc-handlers';
import { SSE_HEADERS, sseData, sseErrorEvent } from '../protocol/sse-frames';
import { sseBatchResponse } from './sse-response';
import { asA2AError } from './operation-error';
import { inboundTrace } from './trace-headers';
import { heldJsonResponse } from './held-response';
import { cardOrigin } from './served-card';

type RpcId = string | number | null;

function rpcError(id: RpcId, err: A2AError, version: ProtocolVersion, status = 200): Response {
  return Response.json({ jsonrpc: '2.0', id, error: toJsonRpcError(err, version) }, { status, headers: retryAfterHeaders(err) });
}

interface Envelope {
  id: RpcId;
  method: string;
  params: unknown;
  /** Bad params, reported once the method is known (an unknown method is -32601 first). */
  paramsError?: A2AError;
}

/**
 * The envelope. A request without an `id` is answered as if its id were null (the 0.3 suite
 * expects -32601 / -32602 for such requests, not -32600); an id of the wrong type is -32600.
 */
function checkEnvelope(body: unknown): Envelope | { error: A2AError; id: RpcId } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    return { id: null, error: new A2AError('invalidRequest', 'expected a single JSON-RPC request object (batches are not supported)') };
  }
  const b = body as Record<string, unknown>;
  const validId = b.id === undefined || typeof b.id === 'string' || typeof b.id === 'number' || b.id === null;
  const id = validId ? ((b.id ?? null) as RpcId) : null;
  if (!validId) return { id, error: new A2AError('invalidRequest', 'id: expected a string, number or null') };
  if (b.jsonrpc !== '2.0') return { id, error: new A2AError('invalidRequest', 'jsonrpc: expected "2.0"') };
  if (typeof b.method !== 'string' || !b.method) return { id, error: new A2AError('invalidRequest', 'method: expected a non-empty string') };
  if (b.params !== undefined && (typeof b.params !== 'object' || b.params === null || Array.isArray(b.params))) {
    return { id, method: b.method, params: b.params, paramsError: new A2AError('invalidParams', 'params: expected an object') };
  }
  return { id, method: b.method, params: b.params };
}

/** The version a request speaks before its method is known: its A2A-Version (header or query). */
function headerVersion(req: Request): ProtocolVersion {
  return isV1(requestedVersion(req)) ? '1.0' : '0.3';
}

/** An endpoint no served agent answers: a JSON-RPC error (-32601, id null) with HTTP 404. */
export function unknownAgentRpc(req: Request, slug: string): Response {
  return rpcError(null, new A2AError('methodNotFound', `no served agent "${slug}"`), headerVersion(req), 404);
}

/**
 * JSON-RPC bodies are JSON (the A2A specification), decided before parsing: any other declared
 * Content-Type is -32005 ContentTypeNotSupported, with HTTP 200 in v1.0 (which defines the
 * code) and HTTP 415 in v0.3 (which has no transport-level code). No header at all is read as JSON.
 */
function contentTypeRefusal(req: Request): Response | null {
  const declared = req.headers.get('content-type');
  if (declared === null || isJsonMediaType(declared)) return null;
  const version = headerVersion(req);
  const err = new A2AError('contentTypeNotSupported', `Content-Type ${declared.split(';')[0].trim() || '(empty)'}; expected application/json`);
  return rpcError(null, err, version, version === '1.0' ? 200 : 415);
}

export async function serveJsonRpc(req: Request, agent: ServedAgent): Promise<Response> {
  const auth = await authenticateInbound(req, agent.slug);
  if (!auth.ok) return auth.response;
  const refusal = contentTypeRefusal(req);
  if (refusal) return refusal;
  const read = await readRequestJson(req, getSettings().maxBodyBytes);
  if (!read.ok && read.problem === 'too-large') return rpcError(null, new A2AError('invalidRequest', read.message), '0.3', 413);
  if (!read.ok && read.problem === 'too-deep') {
    return rpcError(null, new A2AError('invalidRequest', `the body nests deeper than ${MAX_JSON_DEPTH} levels`), headerVersion(req));
  }
  if (!read.ok) return rpcError(null, new A2AError('parse'), headerVersion(req));
  const envelope = checkEnvelope(read.value);
  if ('error' in envelope) return rpcError(envelope.id, envelope.error, headerVersion(req));
  const method = findMethod(envelope.method);
  if (!method) return rpcError(envelope.id, new A2AError('methodNotFound', envelope.method), headerVersion(req));
  const answer = errorAnswer(envelope.id, method);
  if (envelope.paramsError) return answer(envelope.paramsError);
  const header = requestedVersion(req);
  if (!acceptsVersionHeader(header)) {
    return rpcError(envelope.id, new A2AError('versionNotSupported', `A2A-Version ${header}; supported: 0.3, 1.0`), '1.0');
  }
  const ctx = { agent, version: method.version, caller: auth.caller, ownerName: auth.ownerName, scope: callerScope(agent.slug, auth.owner), extensions: requestedExtensions(req), signal: req.signal, trace: inboundTrace(req), lastEventId: req.headers.get('last-event-id'), baseUrl: cardOrigin(req.headers).url };
  const logContext = { agent: agent.slug, method: envelope.method, caller: auth.caller };
  // v1.0 is ProtoJSON: proto field names (task_id) are read as their JSON names (taskId).
  const params = method.version === '1.0' ? toProtoJsonNames(envelope.params) : envelope.params;
  try {
    const outcome = await runOperation(method.op, params, ctx);
    if (outcome.kind === 'result') return Response.json({ jsonrpc: '2.0', id: envelope.id, result: outcome.result });
    const id = envelope.id;
    if (outcome.kind === 'held') {
      return await heldJsonResponse(outcome.result, {
        body: (result) => JSON.stringify({ jsonrpc: '2.0', id, result }),
        errorResponse: (err) => answer(asA2AError(err, logContext)),
        errorBody: (err) => JSON.stringify({ jsonrpc: '2.0', id, error: toJsonRpcError(asA2AError(err, logContext), method.version) }),
      });
    }
    return await sseBatchResponse(outcome.events, {
      frame: (result, generation) => sseData({ jsonrpc: '2.0', id, result }, generation),
      errorFrame: (err) => sseErrorEvent({ jsonrpc: '2.0', id, error: toJsonRpcError(asA2AError(err, logContext), method.version) }),
    });
  } catch (err) {
    return answer(asA2AError(err, logContext));
  }
}

/**
 * How a method's errors go out: plain JSON-RPC errors, except for the v0.3 streaming methods,
 * whose errors come as an event stream carrying the error event (as the 0.3 suite and the
 * a2a-js 0.3 server do). v1.0 answers streaming errors as plain JSON (a2a-js 1.x does too).
 */
function errorAnswer(id: RpcId, method: { version: ProtocolVersion; op: Operation }) {
  const asStream = method.version === '0.3' && STREAMING_OPS.includes(method.op);
  return (err: A2AError): Response => {
    if (!asStream) return rpcError(id, err, method.version);
    return new Response(sseErrorEvent({ jsonrpc: '2.0', id, error: toJsonRpcError(err, method.version) }), { headers: { ...SSE_HEADERS, ...retryAfterHeaders(err) } });
  };
}
