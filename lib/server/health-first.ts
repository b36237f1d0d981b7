/**
 * `GET /api/health` answered by the HTTP server's own listener, before Next.js routes it
 * (decision 378). Through Next a probe takes several event-loop turns (routing, the route
 * module's async context, the web Response piped back through a stream); while thousands of
 * sends are answered each turn is long, so a load balancer's probe waited a multiple of them
 * (p99 0.2–0.8 s in a 2,000-task detach burst). Here it is answered in the turn its request is
 * read: one synchronous write for a probe, one store call for a viewer.
 *
 * The answer is the route's own (`healthBody`, shared with app/api/health/route.ts). Anything the
 * fast path does not answer itself (another method or path, a throttled wrong token, a store that
 * failed to say) goes to Next untouched, where the route and its wrapper answer as before.
 */
import type http from 'node:http';
import { bearerRetryAfter, identifyHeaders, type HeaderSource } from '../auth/guard';
import { roleAllows } from '../auth/roles';
import { store } from '../db/store';
import { answerA2aHere } from './a2a-first';
import { SECURITY_HEADERS } from './security-headers';

export const HEALTH_PATH = '/api/health';
const WRAPPED = Symbol.for('switchboard.health-first');

type RequestListener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/**
 * What GET /api/health answers: the store in use; a caller who may see more (a viewer or an
 * operator, or anyone in open mode) also gets the store's health (on PostgreSQL: this instance,
 * its leases and listener). A probe that may not see the details gets none computed: no await,
 * no query, whatever the store's load.
 */
export function healthBody(headers: HeaderSource): Record<string, unknown> | Promise<Record<string, unknown>> {
  const caller = identifyHeaders(headers);
  if (!caller || !roleAllows(caller.role, 'viewer')) return { ok: true, store: store().kind };
  return store()
    .membership.health()
    .then((details) => ({ ok: true, ...details }));
}

/** A Node request's headers as the auth helpers read them. */
function headersOf(req: http.IncomingMessage): HeaderSource {
  return {
    get: (name) => {
      const value = req.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(', ') : (value ?? null);
    },
  };
}

function isHealthProbe(req: http.IncomingMessage): boolean {
  if (req.method !== 'GET' || !req.url?.startsWith(HEALTH_PATH)) return false;
  const rest = req.url.slice(HEALTH_PATH.length);
  return rest === '' || rest.startsWith('?');
}

function send(res: http.ServerResponse, body: Record<string, unknown>): void {
  const json = JSON.stringify(body);
  res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

/** Answers a health probe here, or returns false (then Next answers it). */
function answerHere(req: http.IncomingMessage, res: http.ServerResponse, next: () => void): boolean {
  if (!isHealthProbe(req)) return false;
  const headers = headersOf(req);
  // A wrong token from a throttled address gets the route's 429, from Next.
  if (bearerRetryAfter(headers) !== null) return false;
  const body = healthBody(headers);
  if (!(body instanceof Promise)) send(res, body);
  else body.then((b) => send(res, b), next); // a store that fails to say: the route's error answer
  return true;
}

/**
 * Puts the health answer, then the A2A endpoints' (a2a-first.ts, decision 395), in front of the
 * server's request listeners present now (Next's handler): call it before other hooks add
 * listeners of their own, which then still run for every request (they only look at it; the
 * remote-address stamp is prepended, so it is in place before either answers). Applied once per
 * server.
 */
export function answerHealthFirst(server: http.Server & { [WRAPPED]?: true }): void {
  if (server[WRAPPED]) return;
  server[WRAPPED] = true;
  const handlers = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const next = () => {
      for (const handler of handlers) handler.call(server, req, res);
    };
    if (!answerHere(req, res, next) && !answerA2aHere(req, res)) next();
  });
}
