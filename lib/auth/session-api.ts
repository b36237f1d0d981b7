/**
 * The logic behind /api/session: who am I (GET), log in with a token (POST), log out (DELETE).
 * The token is exchanged for a signed session cookie and never stored in it.
 */
import { getSettings } from '../config/settings';
import { apiError, parseJsonBody } from '../api/responses';
import { LoginRequestSchema, type SessionInfo } from '../dashboard/wire';
import { authRequired, identify, sameOrigin, type Caller } from './guard';
import { issueSession, revokeSession, roleForToken, SESSION_TTL_MS, sessionCookie } from './session';
import { log } from '../log';

export function sessionInfo(caller: Caller | null): SessionInfo {
  return {
    authenticated: caller !== null,
    role: caller?.role ?? null,
    via: caller?.via ?? null,
    open: !authRequired(),
    expiresAt: caller?.session ? new Date(caller.session.expiresAt).toISOString() : null,
  };
}

export function whoAmI(req: Request): Response {
  return Response.json(sessionInfo(identify(req)), { headers: { 'Cache-Control': 'no-store' } });
}

export async function logIn(req: Request): Promise<Response> {
  if (!sameOrigin(req)) return apiError(403, 'cross_origin', 'cross-origin request refused');
  const settings = getSettings();
  if (!authRequired(settings)) return Response.json(sessionInfo(identify(req)));
  const body = await parseJsonBody(req, LoginRequestSchema);
  if ('response' in body) return body.response;
  const role = roleForToken(body.data.token, settings);
  if (!role) {
    log.warn('dashboard login refused', { reason: 'unknown token' });
    return apiError(401, 'invalid_token', 'that token is not valid here', 'token');
  }
  const { value, claim } = issueSession(role, settings);
  const info: SessionInfo = { authenticated: true, role, via: 'session', open: false, expiresAt: new Date(claim.expiresAt).toISOString() };
  log.info('dashboard login', { role });
  return Response.json(info, { headers: { 'Set-Cookie': sessionCookie(req, value, SESSION_TTL_MS / 1000), 'Cache-Control': 'no-store' } });
}

export function logOut(req: Request): Response {
  if (!sameOrigin(req)) return apiError(403, 'cross_origin', 'cross-origin request refused');
  const caller = identify(req);
  if (caller?.session) revokeSession(caller.session);
  return new Response(null, { status: 204, headers: { 'Set-Cookie': sessionCookie(req, '', 0) } });
}
