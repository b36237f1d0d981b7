/**
 * The one wrapper every /api route handler goes through: same-origin check for
 * mutations, the caller and its role, a bounded JSON body, a validated query string, and JSON
 * errors (never Next's HTML 500 page). A route file then only maps its input to its answer:
 *
 *   export const POST = apiRoute({ role: 'operator', body: PeerCreateSchema }, async ({ body }) => …);
 */
import type { z } from 'zod';
import { getSettings } from '../config/settings';
import { bearerRetryAfter, identify, sameOrigin, type Caller } from '../auth/guard';
import { throttledResponse } from '../auth/login-throttle';
import { roleAllows, type Role } from '../auth/roles';
import { MAX_JSON_DEPTH } from '../server/json-depth';
import { readRequestJson } from '../server/read-body';
import { errorMessage, log } from '../log';
import { ClientError } from '../protocol/client-error';
import { apiError, invalidRequest } from './responses';

export interface RouteContext<P, B, Q = undefined> {
  req: Request;
  /** Null only for `role: 'public'` routes. */
  caller: Caller | null;
  params: P;
  body: B;
  query: Q;
}

export interface RouteOptions<B, Q = undefined> {
  /** Who may call: a role, or 'public' (health, login). */
  role: Role | 'public';
  /** Parse and validate a JSON body against this schema. */
  body?: z.ZodType<B>;
  /** Validate the query string against this schema (empty values count as absent). */
  query?: z.ZodType<Q>;
  /** Body limit in bytes (default SWITCHBOARD_MAX_API_BODY_BYTES). */
  maxBodyBytes?: number;
  /**
   * A request this accepts carries another kind of credential (a launched agent's delegation
   * token, a metrics scraper's token) and skips the role check; whatever the predicate does not
   * verify itself, the handler must.
   */
  otherCredential?: (req: Request) => boolean;
}

type NextContext<P> = { params: Promise<P> };

/** A refusal the layers below raise for their HTTP callers (the one ClientError), or null. */
function refusalOf(err: unknown): Response | null {
  if (err instanceof ClientError) return apiError(err.status, err.code, err.message, err.field);
  return null;
}

/** The caller, or the refusal: 401 / 403, or 429 while wrong tokens are throttled. */
function authorize(req: Request, role: Role): { caller: Caller } | { response: Response } {
  const caller = identify(req);
  if (!caller) return { response: apiError(401, 'unauthenticated', 'log in or send an operator token') };
  if (!roleAllows(caller.role, role)) return { response: apiError(403, 'forbidden', `requires the ${role} role`) };
  return { caller };
}

/** Reads, bounds and validates a JSON body; a refusal names what was wrong (and the field). */
export async function readJsonBody<B>(req: Request, schema: z.ZodType<B>, limit: number): Promise<{ data: B } | { response: Response }> {
  const read = await readRequestJson(req, limit);
  if (!read.ok && read.problem === 'too-large') return { response: apiError(413, 'body_too_large', `request body exceeds ${limit} bytes`) };
  if (!read.ok && read.problem === 'too-deep') return { response: apiError(400, 'invalid_json', `request body nests deeper than ${MAX_JSON_DEPTH} levels`) };
  if (!read.ok) return { response: apiError(400, 'invalid_json', 'request body must be a JSON object') };
  const parsed = schema.safeParse(read.value);
  if (parsed.success) return { data: parsed.data };
  return { response: invalidRequest(parsed.error.issues) };
}

/** The query string validated against a schema; a refusal names the parameter (a 400). */
function parseQuery<Q>(req: Request, schema: z.ZodType<Q>): { data: Q } | { response: Response } {
  const raw: Record<string, string> = {};
  for (const [key, value] of new URL(req.url).searchParams) if (value.trim() !== '') raw[key] = value;
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { data: parsed.data };
  return { response: invalidRequest(parsed.error.issues) };
}

export function apiRoute<P = Record<string, never>, B = undefined, Q = undefined>(
  opts: RouteOptions<B, Q>,
  handler: (ctx: RouteContext<P, B, Q>) => Promise<Response> | Response,
): (req: Request, ctx: NextContext<P>) => Promise<Response> {
  return async (req, ctx) => {
    try {
      if (!sameOrigin(req)) return apiError(403, 'cross_origin', 'cross-origin request refused');
      const retryAfter = bearerRetryAfter(req.headers);
      if (retryAfter !== null) return throttledResponse(retryAfter);
      let caller: Caller | null = null;
      if (opts.role !== 'public' && !opts.otherCredential?.(req)) {
        const auth = authorize(req, opts.role);
        if ('response' in auth) return auth.response;
        caller = auth.caller;
      }
      let body = undefined as B;
      if (opts.body) {
        const read = await readJsonBody(req, opts.body, opts.maxBodyBytes ?? getSettings().maxApiBodyBytes);
        if ('response' in read) return read.response;
        body = read.data;
      }
      let query = undefined as Q;
      if (opts.query) {
        const parsed = parseQuery(req, opts.query);
        if ('response' in parsed) return parsed.response;
        query = parsed.data;
      }
      const params = ((await ctx?.params) ?? {}) as P;
      return await handler({ req, caller, params, body, query });
    } catch (err) {
      const refusal = refusalOf(err);
      if (refusal) return refusal;
      log.error('API route failed', { method: req.method, path: new URL(req.url).pathname, error: errorMessage(err), stack: err instanceof Error ? err.stack : undefined });
      return apiError(500, 'internal', 'internal error; see the server log');
    }
  };
}
