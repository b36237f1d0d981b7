/**
 * Role checks for /api route handlers (design §7). Roles are enforced here, in the handlers,
 * not only hidden in the UI. Mutations also pass a same-origin check.
 *
 * A caller is identified, in order, by:
 * 1. `Authorization: Bearer <token>` with the operator or viewer token (scripts, curl);
 * 2. the signed session cookie set by POST /api/session (the dashboard);
 * 3. open mode: no token configured at all, which the server only allows on a loopback bind.
 *    Open mode still refuses a Host that is not loopback (or the configured public URL), so a
 *    DNS-rebinding page cannot drive the hub through the operator's browser.
 */
import { getSettings, isLoopbackHost, type Settings } from '../config/settings';
import { apiError } from '../api/responses';
import { roleAllows, type Role } from './roles';
import { readCookie, roleForToken, SESSION_COOKIE, verifySession, type SessionClaim } from './session';

export type CallerVia = 'open' | 'session' | 'token';

export interface Caller {
  role: Role;
  name: string;
  via: CallerVia;
  /** The session claim when the caller came with the dashboard cookie. */
  session?: SessionClaim;
}

/** What identification needs from a request; `next/headers` headers() satisfies it too. */
export interface HeaderSource {
  get(name: string): string | null;
}

export function authRequired(settings: Settings = getSettings()): boolean {
  return Boolean(settings.operatorToken || settings.viewerToken);
}

function bearer(headers: HeaderSource): string | null {
  const header = headers.get('authorization');
  return header?.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : null;
}

function hostName(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1);
  return hostHeader.split(':')[0];
}

function publicHost(settings: Settings): string | null {
  try {
    return settings.publicUrl ? new URL(settings.publicUrl).host : null;
  } catch {
    return null;
  }
}

function trustedOpenHost(headers: HeaderSource, settings: Settings): boolean {
  const host = headers.get('host');
  if (!host) return true; // HTTP/1.0 style clients; a browser always sends Host
  return isLoopbackHost(hostName(host)) || host === publicHost(settings);
}

export function identifyHeaders(headers: HeaderSource, settings: Settings = getSettings()): Caller | null {
  if (!authRequired(settings)) {
    return trustedOpenHost(headers, settings) ? { role: 'operator', name: 'local', via: 'open' } : null;
  }
  const token = bearer(headers);
  if (token) {
    const role = roleForToken(token, settings);
    return role ? { role, name: `${role}-token`, via: 'token' } : null;
  }
  const cookie = readCookie(headers.get('cookie'), SESSION_COOKIE);
  const session = cookie ? verifySession(cookie, settings) : null;
  return session ? { role: session.role, name: session.role, via: 'session', session } : null;
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
  if (origin && origin !== 'null') {
    try {
      const host = new URL(origin).host;
      return host === req.headers.get('host') || host === publicHost(settings);
    } catch {
      return false;
    }
  }
  const site = req.headers.get('sec-fetch-site');
  if (site) return site === 'same-origin' || site === 'none';
  if (origin === 'null') return false;
  return !readCookie(req.headers.get('cookie'), SESSION_COOKIE) || bearer(req.headers) !== null;
}

/** Returns a refusal Response, or the caller when allowed. */
export function requireRole(req: Request, needs: Role): { caller: Caller } | { response: Response } {
  if (!sameOrigin(req)) return { response: apiError(403, 'cross_origin', 'cross-origin request refused') };
  const caller = identify(req);
  if (!caller) return { response: apiError(401, 'unauthenticated', 'log in or send an operator token') };
  if (!roleAllows(caller.role, needs)) return { response: apiError(403, 'forbidden', `requires the ${needs} role`) };
  return { caller };
}
