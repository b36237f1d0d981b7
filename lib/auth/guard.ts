/**
 * Who is calling the dashboard and its /api; lib/api/route.ts enforces the roles in
 * every route handler, not only in the UI. Mutations also pass a same-origin check.
 *
 * A caller is identified, in order, by:
 * 1. `Authorization: Bearer <token>` with the operator or viewer token (scripts, curl);
 * 2. the signed session cookie set by POST /api/session (the dashboard);
 * 3. open mode: no token configured at all, which the server only allows on a loopback bind.
 *    Open mode still refuses a Host that is not loopback (or the configured public URL), so a
 *    DNS-rebinding page cannot drive the hub through the operator's browser.
 */
import { getSettings, type Settings } from '../config/settings';
import { originIsOurs, trustedOpenHost, type HeaderSource } from './web-origin';
import type { Role } from './roles';
import { loginRetryAfter, recordLoginFailure, sourceOf } from './login-throttle';
import { isDispatchToken, verifyDispatchToken } from './dispatch-token';
import { readCookie, roleForToken, safeEqual, SESSION_COOKIE, verifySession, type SessionClaim } from './session';

export type CallerVia = 'open' | 'session' | 'token';

export interface Caller {
  role: Role;
  name: string;
  via: CallerVia;
  /** The session claim when the caller came with the dashboard cookie. */
  session?: SessionClaim;
}

export type { HeaderSource };

export function authRequired(settings: Settings = getSettings()): boolean {
  return Boolean(settings.operatorToken || settings.viewerToken);
}

export function bearer(headers: HeaderSource): string | null {
  const header = headers.get('authorization');
  return header?.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : null;
}

/**
 * A credential this hub issued or was configured with, whatever route it opens: a dashboard
 * token, the metrics token, a live delegation token. Such a token is never counted as a guess
 * (a launched agent using its token on a route it does not open gets 401/403, not the throttle).
 */
export function isKnownCredential(token: string, settings: Settings = getSettings()): boolean {
  if (roleForToken(token, settings)) return true;
  if (settings.metricsToken && safeEqual(token, settings.metricsToken)) return true;
  return isDispatchToken(token) && verifyDispatchToken(token) !== null;
}

/**
 * Seconds to wait when the request's bearer token is a wrong one from a throttled source (or a
 * throttled token itself), else null. A right credential is never throttled.
 */
export function bearerRetryAfter(headers: HeaderSource, settings: Settings = getSettings()): number | null {
  const token = bearer(headers);
  if (token === null || !authRequired(settings) || isKnownCredential(token, settings)) return null;
  return loginRetryAfter(sourceOf(headers), token);
}

export function identifyHeaders(headers: HeaderSource, settings: Settings = getSettings()): Caller | null {
  if (!authRequired(settings)) {
    return trustedOpenHost(headers, settings) ? { role: 'operator', name: 'local', via: 'open' } : null;
  }
  const token = bearer(headers);
  if (token) {
    // Every place a token is checked counts a wrong one toward the login throttle, so no page or
    // route is an unthrottled oracle; the right token is accepted whatever the throttle says.
    const role = roleForToken(token, settings);
    if (role) return { role, name: `${role}-token`, via: 'token' };
    if (!isKnownCredential(token, settings) && loginRetryAfter(sourceOf(headers), token) === null) recordLoginFailure(sourceOf(headers), token);
    return null;
  }
  const cookie = readCookie(headers.get('cookie'), SESSION_COOKIE);
  const session = cookie ? verifySession(cookie, settings) : null;
  return session ? { role: session.role, name: session.name ?? session.role, via: 'session', session } : null;
}

export function identify(req: Request): Caller | null {
  return identifyHeaders(req.headers);
}

/**
 * CSRF defence for mutations. A browser sends Origin on every cross-origin (and same-origin)
 * POST/PATCH/DELETE; it must name this host or the configured public URL. Without Origin we
 * look at Sec-Fetch-Site; a cookie-authenticated mutation with neither is refused, while
 * bearer-token and open-mode callers without them (curl, scripts) are not CSRF-able and pass.
 */
export function sameOrigin(req: Request, settings: Settings = getSettings()): boolean {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return true;
  const origin = req.headers.get('origin');
  if (origin && origin !== 'null') return originIsOurs(origin, req.headers, settings);
  const site = req.headers.get('sec-fetch-site');
  if (site) return site === 'same-origin' || site === 'none';
  if (origin === 'null') return false;
  return !readCookie(req.headers.get('cookie'), SESSION_COOKIE) || bearer(req.headers) !== null;
}
