/**
 * The logic behind /api/session: who am I (GET), log in with a token (POST), log out (DELETE).
 * The token is exchanged for a signed session cookie and never stored in it. Wrong tokens are
 * throttled (login-throttle.ts); a logout is persisted (revocations.ts).
 */
import { getSettings, type Settings } from '../config/settings';
import { apiRoute } from './route';
import { apiError } from './responses';
import type { SessionInfo } from '../dashboard/wire';
import { authRequired, identify, type Caller } from '../auth/guard';
import { loginRetryAfter, recordLoginFailure, sourceOf, throttledResponse } from '../auth/login-throttle';
import { logOutSession } from '../auth/revocations';
import { issueSession, roleForToken, SESSION_TTL_MS, sessionCookie } from '../auth/session';
import { log } from '../log';

/** A login body is one token (at most 4,096 characters); nothing bigger is read. */
export const LOGIN_BODY_LIMIT = 8 * 1024;

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

export function logIn(req: Request, token: string): Response {
  const settings = getSettings();
  if (!authRequired(settings)) return Response.json(sessionInfo(identify(req)));
  const role = roleForToken(token, settings);
  if (!role) {
    // Only a wrong token is throttled: the right one logs in whatever this source sent before.
    const source = sourceOf(req.headers);
    const retryAfter = loginRetryAfter(source, token);
    if (retryAfter !== null) return throttledResponse(retryAfter);
    recordLoginFailure(source, token);
    log.warn('dashboard login refused', { reason: 'unknown token' });
    return apiError(401, 'invalid_token', 'that token is not valid here', 'token');
  }
  const { value, claim } = issueSession(role, settings);
  const info: SessionInfo = { authenticated: true, role, via: 'session', open: false, expiresAt: new Date(claim.expiresAt).toISOString() };
  log.info('dashboard login', { role });
  return Response.json(info, { headers: { 'Set-Cookie': sessionCookie(req, value, SESSION_TTL_MS / 1000), 'Cache-Control': 'no-store' } });
}

export async function logOut(req: Request): Promise<Response> {
  const caller = identify(req);
  if (caller?.session) await logOutSession(caller.session);
  return new Response(null, { status: 204, headers: { 'Set-Cookie': sessionCookie(req, '', 0) } });
}

/** A step of sign-in through the OpenID provider (dashboard-oidc.ts) as a public route; 404 when it is not configured. */
export function providerSignInRoute(step: (req: Request, settings: Settings) => Promise<Response>) {
  return apiRoute({ role: 'public' }, ({ req }) => {
    const settings = getSettings();
    if (!settings.oidcLogin) return apiError(404, 'not_found', 'sign-in through an OpenID provider is not configured (SWITCHBOARD_OIDC_LOGIN_CLIENT_ID)');
    return step(req, settings);
  });
}
