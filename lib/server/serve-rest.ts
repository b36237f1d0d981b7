/**
 * The A2A v1.0 HTTP+JSON binding (spec §11) at `/a2a/<slug>/…`: resource paths and verbs onto
 * the same operations as JSON-RPC (runOperation), ProtoJSON bodies, AIP-193 errors with the
 * §5.4 HTTP statuses, and SSE whose events are StreamResponse objects. v1.0 only: a request
 * naming another A2A-Version gets VersionNotSupported (no header is read as 1.0, the one
 * generation this binding has).
 */
import type { ServedAgent } from '../agent-runner';
import { authenticateInbound } from '../auth/api-keys';
import { callerScope } from '../db/task-scope';
import { cardOrigin } from './served-card';
import { getSettings } from '../config/settings';
import { A2AError, httpStatusOf, retryAfterHeaders, toRestError } from '../protocol/errors';
import { toProtoJsonNames } from '../protocol/proto-json-names';
import { readRequestJson } from './read-body';
import { isJsonMediaType } from './media-type';
import { MAX_JSON_DEPTH } from './json-depth';
import { runOperation } from './rpc-handlers';
import type { Operation } from './rpc-methods';
import { asA2AError } from './operation-error';
import { sseBatchResponse } from './sse-response';
import { encodeFrame, sseData } from '../protocol/sse-frames';
import { acceptsV1Only, requestedVersion } from './requested-version';
import { requestedExtensions } from './requested-extensions';
import { inboundTrace } from './trace-headers';
import { heldJsonResponse } from './held-response';

/** PUT and PATCH have no operation: a known path answers 405 to them, like any wrong verb. */
export type Verb = 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';

interface Route {
  op: Operation;
  /** Params from the path and query; a POST body is merged over them. */
  params: Record<string, unknown>;
  body: boolean;
}

/**
 * An AIP-193 error body. `status` overrides the HTTP status where HTTP itself answers (405 a
 * wrong verb, 413 a body over the limit); `grpcStatus` then names the google.rpc code that fits.
 */
export function restError(err: A2AError, status = httpStatusOf(err), grpcStatus?: string): Response {
  const body = toRestError(err).error;
  return Response.json({ error: { ...body, code: status, status: grpcStatus ?? body.status } }, { status, headers: retryAfterHeaders(err) });
}

/** A body over the limit: 413, as the JSON-RPC binding and /api answer it (decision 171). */
class RestBodyTooLarge {
  constructor(readonly error: A2AError) {}
}

/** A path that exists with another verb: 405, naming the one it takes. */
interface WrongVerb {
  wrongVerb: A2AError;
}

/** Query values as ProtoJSON reads them: decimal numbers and true/false; the rest stay strings. */
function queryParams(url: URL): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of url.searchParams) {
    if (key === 'A2A-Version') continue;
    out[key] = /^-?\d+$/.test(value) ? Number(value) : value === 'true' ? true : value === 'false' ? false : value;
  }
  return out;
}

/** ListTasks' status may be given as `TASK_STATE_WORKING` or, as §11.5 shows, `working`. */
function v10StateName(status: unknown): unknown {
  if (typeof status !== 'string' || status.startsWith('TASK_STATE_')) return status;
  return `TASK_STATE_${status.toUpperCase().replace(/-/g, '_')}`;
}

/**
 * GetTask's long poll over HTTP+JSON (the generation extension): `?waitForGenerationAfter=N
 * &waitSeconds=S` become the `metadata.switchboard` fields JSON-RPC callers send.
 */
function generationQuery(query: Record<string, unknown>): Record<string, unknown> {
  const { waitForGenerationAfter, waitSeconds, ...rest } = query;
  if (waitForGenerationAfter === undefined) return rest;
  return { ...rest, metadata: { switchboard: { waitForGenerationAfter, ...(waitSeconds !== undefined ? { waitSeconds } : {}) } } };
}

/** `tasks/<id>:cancel` → [id, 'cancel']; `tasks/<id>` → [id, undefined]. */
function splitVerb(segment: string): [string, string | undefined] {
  const colon = segment.lastIndexOf(':');
  return colon > 0 ? [segment.slice(0, colon), segment.slice(colon + 1)] : [segment, undefined];
}

/** The operation at a path and verb, or the error to answer (404 no such path, 405 wrong verb). */
function route(verb: Verb, segments: string[], url: URL): Route | WrongVerb | A2AError {
  const query = queryParams(url);
  const [root, second, third, fourth] = segments;
  const at = (allowed: Verb, r: Route): Route | WrongVerb =>
    verb === allowed || (r.op === 'subscribe' && verb === 'GET') ? r : { wrongVerb: new A2AError('methodNotFound', `${verb} is not allowed here; use ${allowed}`) };
  if (segments.length === 1 && root === 'message:send') return at('POST', { op: 'send', params: {}, body: true });
  if (segments.length === 1 && root === 'message:stream') return at('POST', { op: 'stream', params: {}, body: true });
  if (segments.length === 1 && root === 'extendedAgentCard') return at('GET', { op: 'extendedCard', params: {}, body: false });
  if (root === 'tasks' && segments.length === 1) return at('GET', { op: 'list', params: { ...query, status: v10StateName(query.status) }, body: false });
  if (root === 'tasks' && segments.length === 2) {
    const [id, action] = splitVerb(second);
    if (action === 'cancel') return at('POST', { op: 'cancel', params: { id }, body: true });
    if (action === 'subscribe') return at('POST', { op: 'subscribe', params: { id }, body: false });
    if (action === undefined) return at('GET', { op: 'get', params: { ...generationQuery(query), id }, body: false });
  }
  if (root === 'tasks' && third === 'pushNotificationConfigs' && segments.length === 3) {
    if (verb === 'POST') return { op: 'pushSet', params: { taskId: second }, body: true };
    return at('GET', { op: 'pushList', params: { ...query, taskId: second }, body: false });
  }
  if (root === 'tasks' && third === 'pushNotificationConfigs' && segments.length === 4) {
    if (verb === 'DELETE') return { op: 'pushDelete', params: { taskId: second, id: fourth }, body: false };
    return at('GET', { op: 'pushGet', params: { taskId: second, id: fourth }, body: false });
  }
  return new A2AError('methodNotFound', `no HTTP+JSON operation at /${segments.join('/')}`);
}

/** A POST body: JSON (decided by Content-Type before reading), an object, within the size limit. */
async function readJsonBody(req: Request): Promise<Record<string, unknown> | A2AError | RestBodyTooLarge> {
  const declared = req.headers.get('content-type');
  if (declared !== null && !isJsonMediaType(declared)) {
    return new A2AError('contentTypeNotSupported', `Content-Type ${declared.split(';')[0].trim() || '(empty)'}; expected application/json`);
  }
  const read = await readRequestJson(req, getSettings().maxBodyBytes);
  if (!read.ok && read.problem === 'too-large') return new RestBodyTooLarge(new A2AError('invalidRequest', read.message));
  if (!read.ok && read.problem === 'empty') return {};
  if (!read.ok && read.problem === 'too-deep') return new A2AError('invalidRequest', `body: nests deeper than ${MAX_JSON_DEPTH} levels`);
  if (!read.ok) return new A2AError('parse');
  const body = read.value;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return new A2AError('invalidRequest', 'body: expected a JSON object');
  return body as Record<string, unknown>;
}

/** Serves one HTTP+JSON request; `segments` is the path below `/a2a/<slug>/`. */
export async function serveRest(req: Request, agent: ServedAgent, segments: string[], verb: Verb): Promise<Response> {
  const auth = await authenticateInbound(req, agent.slug);
  if (!auth.ok) return auth.response;
  const url = new URL(req.url);
  const version = requestedVersion(req);
  if (!acceptsV1Only(version)) return restError(new A2AError('versionNotSupported', `A2A-Version ${version}; HTTP+JSON serves 1.0`));
  const found = route(verb, segments, url);
  if (found instanceof A2AError) return restError(found);
  if ('wrongVerb' in found) return restError(found.wrongVerb, 405, 'UNIMPLEMENTED');
  let params: Record<string, unknown> = found.params;
  if (found.body) {
    const body = await readJsonBody(req);
    if (body instanceof A2AError) return restError(body);
    if (body instanceof RestBodyTooLarge) return restError(body.error, 413);
    // The path names the task; a body's own taskId/id may not point elsewhere.
    params = { ...(toProtoJsonNames(body) as Record<string, unknown>), ...found.params };
  } else {
    params = toProtoJsonNames(params) as Record<string, unknown>;
  }
  const logContext = { agent: agent.slug, binding: 'HTTP+JSON', op: found.op, caller: auth.caller };
  try {
    const outcome = await runOperation(found.op, params, { agent, version: '1.0', caller: auth.caller, ownerName: auth.ownerName, scope: callerScope(agent.slug, auth.owner), extensions: requestedExtensions(req), signal: req.signal, trace: inboundTrace(req), lastEventId: req.headers.get('last-event-id'), baseUrl: cardOrigin(req.headers).url });
    if (outcome.kind === 'result') return Response.json(outcome.result ?? {});
    if (outcome.kind === 'held') {
      return await heldJsonResponse(outcome.result, {
        body: (result) => JSON.stringify(result ?? {}),
        errorResponse: (err) => restError(asA2AError(err, logContext)),
        // After the 200 went out: the AIP-193 body, its `code` the status it would have had.
        errorBody: (err) => {
          const error = asA2AError(err, logContext);
          return JSON.stringify({ error: { ...toRestError(error).error, code: httpStatusOf(error) } });
        },
      });
    }
    return await sseBatchResponse(outcome.events, {
      frame: (result, generation) => sseData(result, generation),
      errorFrame: (err) => encodeFrame({ event: 'error', data: toRestError(asA2AError(err, logContext)) }),
    });
  } catch (err) {
    return restError(asA2AError(err, logContext));
  }
}
