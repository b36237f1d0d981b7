/**
 * A small JSON-RPC 2.0 client for A2A, both versions: unary calls bounded by a total timeout,
 * and SSE streams bounded by an idle timeout (reset by every byte, keepalives included), so a
 * long but live stream is never cut while a dead one is noticed.
 */
import { randomUUID } from 'node:crypto';
import { bodyError, ClientTimeoutError, httpRequest, TransportError } from './http-transport';
import { parseSseBatches, type SseEvent } from './sse';
import { mapPrefix } from './batch';
import { errorMessage } from '../log';
import { DIRECT_PEER, metrics } from '../metrics/metrics';
import { beginCallSpan, type CallTrace } from '../tracing/spans';
import { linkedSignal } from '../util/abortable';

export type { ProtocolVersion } from '../protocol/types';
import type { ProtocolVersion } from '../protocol/types';

/** Where and how to call a peer. Headers already hold auth and the peer's extra headers. */
export interface RpcTarget {
  endpoint: string;
  version: ProtocolVersion;
  headers: Record<string, string>;
  /** The configured peer's name (metrics label; absent for a direct URL). */
  peerName?: string;
  /** The local task the call is for: its span is the call's parent, its context is sent on. */
  trace?: CallTrace;
  /**
   * The `Authorization` value for each call, when it is not a fixed header (an OAuth2 peer's
   * access token, lib/peers/oauth2.ts); `refused` is the value the peer just answered 401 to.
   * Set only for an endpoint the credentials may go to (lib/peers/connect.ts).
   */
  authorization?: (refused?: string) => Promise<string>;
}

/**
 * The peer's event stream could not be read (an event that is not JSON): the stream is given up,
 * never the task; the caller falls back to a plain send and polling (decision 162).
 */
export class UnreadableStreamError extends TransportError {}

/**
 * An event's JSON. RFC 7464 JSON text sequences start each record with U+001E (RS); some peers
 * (VoltAgent) put one before every SSE data payload, so one leading RS is accepted.
 */
export function parseEventData(data: string): unknown {
  return JSON.parse(data.startsWith('\u001e') ? data.slice(1) : data);
}

/** A JSON-RPC error object answered by the peer. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export interface CallOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

interface Clock {
  signal: AbortSignal;
  touch(): void;
  /** Stops the clock; `closeStream` also aborts, closing the stream (one that failed). */
  clear(closeStream?: boolean): void;
}

/** An AbortSignal that fires after `timeoutMs` (re-armed by touch) or when `parent` aborts (gRPC calls use it too). */
export function clock(timeoutMs: number, what: string, parent?: AbortSignal): Clock {
  const linked = linkedSignal([parent], { ms: timeoutMs, reason: () => new ClientTimeoutError(timeoutMs, what) });
  return {
    signal: linked.signal,
    touch: linked.rearm,
    clear: (closeStream = false) => {
      if (closeStream) linked.abort(new Error('closed by the client'));
      linked.dispose();
    },
  };
}

/** A request's headers on either HTTP binding: the peer's auth and extra headers, trace context, media types, version. */
function headersFor(target: RpcTarget, accept: string, trace: Record<string, string>): Record<string, string> {
  return {
    ...target.headers,
    ...trace,
    'Content-Type': 'application/json',
    Accept: accept,
    ...(target.version === '1.0' ? { 'A2A-Version': '1.0' } : {}),
  };
}

export function asRecord(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function rpcErrorOf(body: Record<string, unknown>): RpcError | null {
  const error = asRecord(body.error);
  if (!error) return null;
  return new RpcError(Number(error.code ?? -32603), String(error.message ?? 'error without a message'), error.data);
}

/** 401/403 on either HTTP binding: the peer refused our credentials (never an A2A error). */
export function throwIfCredentialsRefused(status: number, wwwAuthenticate?: string): void {
  if (status === 401 || status === 403) {
    throw new TransportError(`HTTP ${status} from the peer: credentials refused${wwwAuthenticate ? ` (WWW-Authenticate: ${wwwAuthenticate})` : ''}`, status);
  }
}

/** Interprets a unary JSON-RPC answer: the result, or RpcError / TransportError. */
export function parseRpcBody(status: number, text: string, wwwAuthenticate?: string): unknown {
  throwIfCredentialsRefused(status, wwwAuthenticate);
  let body: Record<string, unknown> | null = null;
  try {
    body = asRecord(JSON.parse(text));
  } catch {
    // not JSON; reported below
  }
  const error = body && rpcErrorOf(body);
  if (error) throw error;
  if (body && 'result' in body && status >= 200 && status < 300) return body.result;
  throw new TransportError(`HTTP ${status} from the peer without a JSON-RPC result: ${text.slice(0, 200)}`, status);
}

function envelope(method: string, params: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method, params });
}

/** Times one outbound call for switchboard_outbound_request_duration_seconds (either binding). */
export function outboundTimer(target: RpcTarget, method: string): { headers: Record<string, string>; done: (outcome: 'ok' | 'error', error?: unknown) => void } {
  const started = performance.now();
  const span = beginCallSpan(target.trace, method, target.endpoint);
  return {
    headers: span.headers,
    done: (outcome, error) => {
      metrics().outboundDuration.observe({ peer: target.peerName ?? DIRECT_PEER, method, outcome }, (performance.now() - started) / 1000);
      span.end(outcome === 'error' ? errorMessage(error) : undefined);
    },
  };
}

/** One unary outbound call under its clock (the total timeout) with its metric and span; either binding runs inside. */
export async function timedCall<T>(target: RpcTarget, method: string, opts: CallOptions, run: (signal: AbortSignal, traceHeaders: Record<string, string>) => Promise<T>): Promise<T> {
  const t = clock(opts.timeoutMs, method, opts.signal);
  const call = outboundTimer(target, method);
  let outcome: 'ok' | 'error' = 'error';
  let failure: unknown;
  try {
    const result = await run(t.signal, call.headers);
    outcome = 'ok';
    return result;
  } catch (err) {
    failure = err;
    throw err;
  } finally {
    t.clear();
    call.done(outcome, failure);
  }
}

/** One HTTP exchange of either HTTP binding (JSON-RPC, HTTP+JSON): where it goes, and how its answers read. */
export interface HttpCall {
  url: string;
  verb: 'GET' | 'POST';
  body?: string;
  /** A whole (non-SSE) answer: the result, or the error to throw. */
  parseBody(status: number, text: string, wwwAuthenticate?: string): unknown;
  /** One SSE event's JSON (null when not an object): the result to yield, undefined to skip, or it throws. */
  parseEvent(body: Record<string, unknown> | null, event: SseEvent): unknown;
}

/** A unary call over HTTP under the total timeout, with its metric and span. */
export function httpCall(target: RpcTarget, method: string, call: HttpCall, opts: CallOptions): Promise<unknown> {
  return timedCall(target, method, opts, async (signal, traceHeaders) => {
    const res = await httpRequest({ url: call.url, method: call.verb, headers: headersFor(target, 'application/json', traceHeaders), body: call.body, signal });
    const text = await res.text().catch((err) => Promise.reject(bodyError(err, signal)));
    return call.parseBody(res.status, text, res.header('www-authenticate'));
  });
}

function jsonRpcEvent(body: Record<string, unknown> | null, event: SseEvent): unknown {
  const error = body && rpcErrorOf(body);
  if (error) throw error;
  if (body && 'result' in body) return body.result;
  if (event.event === 'error') throw new TransportError(`stream error from the peer: ${event.data.slice(0, 200)}`);
  return undefined;
}

function jsonRpcExchange(target: RpcTarget, method: string, params: unknown): HttpCall {
  return { url: target.endpoint, verb: 'POST', body: envelope(method, params), parseBody: parseRpcBody, parseEvent: jsonRpcEvent };
}

export function rpcCall(target: RpcTarget, method: string, params: unknown, opts: CallOptions): Promise<unknown> {
  return httpCall(target, method, jsonRpcExchange(target, method, params), opts);
}

async function* touching(chunks: AsyncIterable<Buffer>, touch: () => void): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) {
    touch();
    yield chunk;
  }
}

/** The result an SSE event carries (undefined for none); a malformed event makes the stream unreadable. */
function resultOf(call: HttpCall, event: SseEvent): unknown {
  let body: Record<string, unknown> | null;
  try {
    body = asRecord(parseEventData(event.data));
  } catch {
    throw new UnreadableStreamError(`malformed event from the peer (not JSON): ${JSON.stringify(event.data.slice(0, 200))}`);
  }
  return call.parseEvent(body, event);
}

/** A JSON-RPC streaming call: yields the `result`s its SSE events carry, those of one read together. */
export function rpcStream(target: RpcTarget, method: string, params: unknown, opts: CallOptions): AsyncGenerator<unknown[]> {
  return httpStream(target, method, jsonRpcExchange(target, method, params), opts);
}

/**
 * A streaming call over HTTP (either binding): yields the results its SSE events carry, those
 * completed by one read of the body together (a batch, never empty). A peer answering with plain
 * JSON (an early error, or no streaming) is handled too. Ends when the peer closes.
 */
export async function* httpStream(target: RpcTarget, method: string, call: HttpCall, opts: CallOptions): AsyncGenerator<unknown[]> {
  const t = clock(opts.timeoutMs, `${method} stream`, opts.signal);
  const timer = outboundTimer(target, method);
  let outcome: 'ok' | 'error' = 'ok';
  let failure: unknown;
  try {
    const res = await httpRequest({ url: call.url, method: call.verb, headers: headersFor(target, 'text/event-stream, application/json', timer.headers), body: call.body, signal: t.signal });
    if (!res.contentType.toLowerCase().startsWith('text/event-stream')) {
      const text = await res.text();
      yield [call.parseBody(res.status, text, res.header('www-authenticate'))];
      return;
    }
    if (res.status !== 200) throw new TransportError(`HTTP ${res.status} on an event stream`, res.status);
    for await (const events of parseSseBatches(touching(res.chunks, t.touch))) {
      const { mapped, failure } = mapPrefix(events, (event) => resultOf(call, event));
      if (mapped.length) yield mapped;
      if (failure) throw failure.error;
    }
  } catch (err) {
    outcome = 'error';
    failure = err;
    if (err instanceof RpcError) throw err;
    throw bodyError(err, t.signal);
  } finally {
    // A failed stream is closed here; one the reader left early drains its rest and keeps its
    // socket (http-transport.ts bodyChunks, decision 402).
    t.clear(outcome === 'error');
    timer.done(outcome, failure);
  }
}
