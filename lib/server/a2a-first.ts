/**
 * The A2A endpoints answered by the HTTP server's own listener, before Next.js routes them
 * (decision 395), as GET /api/health is (decision 378). Next's own request handling (routing,
 * the route module's template and async context, a NextRequest with its AbortSignal, the web
 * Response piped back through a WritableStream) was most of the CPU an echo costs; here a request
 * takes the path the route files would give it in one step, and the SAME handlers answer it
 * (serveAgentRpc, serveAgentRest, serveAgentCard: lib/server/a2a-routes.ts). The route files
 * stay: they serve everything this passes on (and a server this is not installed on).
 *
 * What Next does around those handlers is done here the same way, so an answer is the same bytes
 * whichever path it took: the x-forwarded-* defaults it adds to the request, an AbortSignal that
 * aborts when the client goes away before the answer ended, the security headers of
 * next.config.mjs and Next's `Vary`, the route's headers copied as Next copies them, its own
 * compression middleware (gzip when the client accepts it), each chunk written with backpressure,
 * the body reader cancelled when the client goes away.
 *
 * Passed on to Next untouched: another path or a method the route files do not export (their
 * 405s are Next's), a URL with `%` (proxy.ts checks its encoding), `\` or `//` (Next redirects),
 * or `.`/`..` segments.
 */
import type http from 'node:http';
import type { TLSSocket } from 'node:tls';
import compression from 'next/dist/compiled/compression';
import { releaseCompressionStream } from 'next/dist/server/lib/release-compression-stream';
import { getSettings } from '../config/settings';
import { errorMessage, log } from '../log';
import { serveAgentCard, serveAgentRest, serveAgentRpc } from './a2a-routes';
import { SECURITY_HEADERS } from './security-headers';
import { inTurnSlice } from '../util/turn-slices';
import type { Verb } from './serve-rest';

type Serve = (req: Request) => Promise<Response>;

const REST_VERBS: ReadonlySet<string> = new Set<Verb>(['GET', 'POST', 'DELETE', 'PUT', 'PATCH']);
const CARD_FILES = new Set(['agent-card.json', 'agent.json']);

/**
 * The handler the app/a2a route files would call for this method and URL, or null (Next
 * answers it). `/a2a[/]` and `/a2a/<slug>[/]` take POST (JSON-RPC); `/a2a/<slug>/.well-known/
 * agent-card.json` (or agent.json) takes GET; any other path below a slug is the HTTP+JSON
 * binding, which takes the five verbs its route file exports.
 */
export function a2aRoute(method: string | undefined, url: string | undefined): Serve | null {
  if (!method || !url?.startsWith('/a2a') || /[%\\]/.test(url)) return null;
  const path = url.split('?', 1)[0];
  if (path.includes('//')) return null;
  const segments = path.split('/').slice(1);
  if (segments[0] !== 'a2a') return null;
  if (segments.length > 1 && segments.at(-1) === '') segments.pop(); // a trailing slash: the same route (skipTrailingSlashRedirect)
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return null;
  const [, slug, ...rest] = segments;
  if (rest.length === 0) return method === 'POST' ? (req) => serveAgentRpc(req, slug) : null;
  if (rest.length === 2 && rest[0] === '.well-known' && CARD_FILES.has(rest[1])) return method === 'GET' ? (req) => serveAgentCard(req, slug) : null;
  return REST_VERBS.has(method) ? (req) => serveAgentRest(req, slug, method as Verb) : null;
}

/** What Next puts on an app route's answer before the route's own headers. */
const NEXT_VARY = 'rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch';
/** Headers Next does not copy from a route's Response (sendResponse): Node frames the body itself. */
const NOT_COPIED = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'x-middleware-set-cookie']);
/** Headers Next appends even when present (sendResponse); any other is set only when absent. */
const REPEATABLE = new Set(['set-cookie', 'www-authenticate', 'proxy-authenticate', 'vary']);

/** The reason the request's signal carries when the client went away (Next's, by name). */
class ResponseAborted extends Error {
  override readonly name = 'ResponseAborted';
}

/**
 * Under `next dev` the route files answer: they are recompiled on an edit, while the modules this
 * listener was started with are not (a developer would be served stale code).
 */
const DEV_SERVER = process.env.NODE_ENV === 'development';

const compress = compression();
const noop = () => undefined;

/** The x-forwarded-* headers Next's server adds to a request that has none (base-server.ts). */
function addForwardedDefaults(req: http.IncomingMessage): void {
  const headers = req.headers;
  const proto = headers['x-forwarded-proto'];
  const https = proto ? proto === 'https' : Boolean((req.socket as TLSSocket).encrypted);
  headers['x-forwarded-host'] ??= headers.host ?? getSettings().host;
  headers['x-forwarded-port'] ??= String(req.socket.localPort ?? (https ? 443 : 80));
  headers['x-forwarded-proto'] ??= https ? 'https' : 'http';
  headers['x-forwarded-for'] ??= req.socket.remoteAddress;
}

function webHeaders(req: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/**
 * The request body, buffered up to one byte past the limit and no further: the handler's reader
 * (read-body.ts) then answers the same precise 413 as through Next; the rest is read and dropped.
 * A declared length over the limit is refused by that reader before any read, so nothing is read.
 * Null when the client went away first.
 */
function boundedBody(req: http.IncomingMessage, limit: number): Promise<Buffer | null> {
  if (Number(req.headers['content-length'] ?? '0') > limit) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (body: Buffer | null) => {
      req.off('data', onData).off('end', onEnd).off('close', onClose);
      resolve(body);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size <= limit) return;
      finish(Buffer.concat(chunks).subarray(0, limit + 1));
      req.resume(); // no listener: the rest is read and dropped
    };
    const onEnd = () => finish(Buffer.concat(chunks));
    const onClose = () => finish(null);
    req.on('data', onData).on('end', onEnd).on('close', onClose);
  });
}

/** Aborts when the response closes before it finished: the client went away (Next's signalFromNodeResponse). */
function clientGone(res: http.ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new ResponseAborted());
  });
  return controller.signal;
}

function webRequest(req: http.IncomingMessage, body: Buffer, signal: AbortSignal): Request {
  const https = req.headers['x-forwarded-proto'] === 'https';
  const { host } = getSettings();
  const url = new URL(req.url!, `${https ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${req.socket.localPort}`);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && body.byteLength > 0;
  return new Request(url, { method: req.method, headers: webHeaders(req), body: hasBody ? body : null, signal, duplex: 'half' } as RequestInit);
}

/** The status and headers as Next's sendResponse sets them, after next.config.mjs's and its Vary. */
function writeHead(res: http.ServerResponse, response: Response): void {
  res.statusCode = response.status;
  res.statusMessage = response.statusText;
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  res.setHeader('vary', NEXT_VARY);
  response.headers.forEach((value, name) => {
    if (NOT_COPIED.has(name)) return;
    if (REPEATABLE.has(name) || res.getHeader(name) === undefined) res.appendHeader(name, value);
  });
}

/** Resolves on the next 'drain' of the response (or its close): one listener for the whole answer, as Next has. */
function drainWaiter(res: http.ServerResponse): () => Promise<void> {
  let wake: () => void = noop;
  const onDrain = () => wake();
  res.on('drain', onDrain);
  res.once('close', onDrain);
  return () => new Promise<void>((resolve) => (wake = resolve));
}

/** The body, chunk by chunk with backpressure; the reader is cancelled when the client goes away. */
async function writeBody(req: http.IncomingMessage, res: http.ServerResponse & { flush?: () => void }, body: ReadableStream<Uint8Array> | null): Promise<void> {
  if (!body || req.method === 'HEAD') return void res.end();
  const reader = body.getReader();
  res.once('close', () => {
    if (!res.writableFinished) reader.cancel().catch(noop);
  });
  const drained = drainWaiter(res);
  try {
    for (let step = await reader.read(); !step.done; step = await reader.read()) {
      if (res.destroyed) return;
      const ok = res.write(step.value);
      res.flush?.(); // the compression stream's: each chunk goes out as it comes (SSE, held answers)
      if (!ok) await drained();
    }
    res.end();
  } catch (err) {
    log.warn('A2A answer cut short', { error: errorMessage(err) });
    res.destroy();
  }
}

/** A handler that threw (the bindings catch their own errors: a last resort): logged, 500 with no body. */
function failed(res: http.ServerResponse, err: unknown): void {
  log.error('A2A request failed', { error: errorMessage(err) });
  if (res.headersSent) return void res.destroy();
  res.statusCode = 500;
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  res.end();
}

async function answer(req: http.IncomingMessage, res: http.ServerResponse, serve: Serve): Promise<void> {
  const signal = clientGone(res);
  const body = await boundedBody(req, getSettings().maxBodyBytes);
  if (body === null) return; // the client went away before its body arrived
  addForwardedDefaults(req);
  let response: Response;
  try {
    response = await serve(webRequest(req, body, signal));
  } catch (err) {
    return failed(res, err);
  }
  // Next's compression middleware, as its router applies it (and frees its zlib stream on a disconnect).
  compress(req, res, noop);
  res.once('close', () => {
    if (!res.writableFinished) releaseCompressionStream(res);
  });
  writeHead(res, response);
  await writeBody(req, res, response.body);
}

/** Answers an A2A request here, or returns false (then Next answers it). */
export function answerA2aHere(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  if (DEV_SERVER) return false;
  const serve = a2aRoute(req.method, req.url);
  if (!serve) return false;
  req.on('error', noop); // a socket error is the client's going away, as under Next
  res.on('error', noop);
  // Handled a slice per loop turn (decision 406): hundreds of sends read in one poll phase
  // would otherwise all run before the loop reads the next socket (the health probe's).
  inTurnSlice(() => {
    if (req.destroyed) return; // the client went away while it waited: nothing to answer
    answer(req, res, serve).catch((err) => failed(res, err));
  });
  return true;
}
