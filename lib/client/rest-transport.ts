/**
 * The HTTP+JSON client binding (A2A v1.0 §11), for peers whose card offers no JSON-RPC
 * interface: the same calls as json-rpc.ts (a v1.0 method name, ProtoJSON params, the ProtoJSON
 * result) as resource paths under the card's URL, on the same HTTP transport, clocks, bounds
 * and SSE parser (json-rpc.ts httpCall/httpStream). Errors are AIP-193 bodies
 * (`{error: {code, status, message, details: [ErrorInfo]}}`), read as the RpcError a JSON-RPC
 * peer's error object would be.
 */
import { TransportError } from './http-transport';
import { restBaseUrl } from './endpoint-binding';
import { asRecord, httpCall, httpStream, throwIfCredentialsRefused, type CallOptions, type HttpCall, type RpcTarget } from './json-rpc';
import { statusRpcError } from './status-errors';

type Json = Record<string, unknown>;

interface Route {
  verb: 'GET' | 'POST';
  path: string;
  query?: Json;
  body?: Json;
}

const id = (params: Json) => encodeURIComponent(String(params.id ?? ''));

/**
 * The v1.0 methods the client calls, as §11 paths. GetTask's `metadata` has no place in a GET
 * (a Switchboard peer asked for its children answers without them over this binding).
 */
const ROUTES: Record<string, (params: Json) => Route> = {
  SendMessage: (params) => ({ verb: 'POST', path: '/message:send', body: params }),
  SendStreamingMessage: (params) => ({ verb: 'POST', path: '/message:stream', body: params }),
  GetTask: (params) => ({ verb: 'GET', path: `/tasks/${id(params)}`, query: { historyLength: params.historyLength } }),
  CancelTask: (params) => ({ verb: 'POST', path: `/tasks/${id(params)}:cancel`, body: {} }),
  SubscribeToTask: (params) => ({ verb: 'GET', path: `/tasks/${id(params)}:subscribe` }),
  ListTasks: (params) => ({ verb: 'GET', path: '/tasks', query: { contextId: params.contextId, historyLength: params.historyLength, pageSize: params.pageSize } }),
};

function urlOf(base: string, route: Route): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(route.query ?? {})) if (value !== undefined && value !== null) query.set(key, String(value));
  const search = query.toString();
  return `${base}${route.path}${search ? `?${search}` : ''}`;
}

/** An AIP-193 error body as the RpcError its ErrorInfo reason (or status name) names, else null. */
function restErrorOf(body: Json | null): Error | null {
  const error = asRecord(body?.error);
  if (!error) return null;
  const details = Array.isArray(error.details) ? error.details.map(asRecord) : [];
  const reason = details.find((d) => d?.domain === 'a2a-protocol.org')?.reason;
  const message = String(error.message ?? '');
  return statusRpcError(typeof reason === 'string' ? reason : undefined, typeof error.status === 'string' ? error.status : undefined, message);
}

function parseJson(text: string): Json | null {
  try {
    return asRecord(JSON.parse(text));
  } catch {
    return null;
  }
}

/** A whole HTTP+JSON answer: the object on 2xx, else RpcError (an A2A error) or TransportError. */
export function parseRestBody(status: number, text: string, wwwAuthenticate?: string): unknown {
  throwIfCredentialsRefused(status, wwwAuthenticate);
  const body = parseJson(text);
  if (body && status >= 200 && status < 300) return body;
  throw restErrorOf(body) ?? new TransportError(`HTTP ${status} from the peer without an HTTP+JSON result: ${text.slice(0, 200)}`, status);
}

/** One SSE event: a StreamResponse, or (`event: error`, or an `error` member) the error it carries. */
function restEvent(body: Json | null, event: { event?: string; data: string }): unknown {
  const error = restErrorOf(body);
  if (error) throw error;
  if (event.event === 'error' || body?.error !== undefined) throw new TransportError(`stream error from the peer: ${event.data.slice(0, 200)}`);
  return body ?? undefined;
}

function exchange(target: RpcTarget, method: string, params: unknown): HttpCall {
  const base = restBaseUrl(target.endpoint);
  if (!base) throw new TransportError(`not an HTTP+JSON endpoint: ${target.endpoint}`, undefined, true);
  if (target.version !== '1.0') throw new TransportError('HTTP+JSON is spoken for A2A 1.0 only', undefined, true);
  const routeOf = ROUTES[method];
  if (!routeOf) throw new TransportError(`no HTTP+JSON path for ${method}`, undefined, true);
  const route = routeOf(asRecord(params) ?? {});
  return { url: urlOf(base, route), verb: route.verb, body: route.body && JSON.stringify(route.body), parseBody: parseRestBody, parseEvent: restEvent };
}

export function restCall(target: RpcTarget, method: string, params: unknown, opts: CallOptions): Promise<unknown> {
  return httpCall(target, method, exchange(target, method, params), opts);
}

export function restStream(target: RpcTarget, method: string, params: unknown, opts: CallOptions): AsyncGenerator<unknown[]> {
  return httpStream(target, method, exchange(target, method, params), opts);
}
