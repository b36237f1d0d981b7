/**
 * Dashboard sessions. The cookie holds a signed claim, never a token:
 * `v1.<payload>.<hmac>` where the payload is {role, iat, exp, nonce} and the HMAC key is derived
 * from the configured tokens. Deriving the key (instead of keeping a random one in memory) keeps
 * sessions valid across a restart, and rotating either token invalidates every session at once.
 * The operator token is the key material whenever it exists, so a viewer (who knows only the
 * viewer token) cannot forge an operator claim; with no operator token no operator claim is valid.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Settings } from '../config/settings';
import type { Role } from './roles';
import { appPart } from '../process-singleton';

export const SESSION_COOKIE = 'sb_session';
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export interface SessionClaim {
  role: Role;
  issuedAt: number;
  expiresAt: number;
  nonce: string;
  /** Who signed in through the OpenID provider (`oidc:<subject>`); absent for a token login. */
  name?: string;
}

type TokenSettings = Pick<Settings, 'operatorToken' | 'viewerToken'> & Partial<Pick<Settings, 'oidcLogin'>>;

function b64url(data: Buffer | string): string {
  return Buffer.from(data).toString('base64url');
}

function sessionKey(settings: TokenSettings): Buffer | null {
  const material = settings.operatorToken ?? settings.viewerToken;
  if (!material) return null;
  return createHmac('sha256', material)
    .update(`switchboard-session-v1\n${settings.operatorToken ?? ''}\n${settings.viewerToken ?? ''}`)
    .digest();
}

function sign(key: Buffer, payload: string): string {
  return b64url(createHmac('sha256', key).update(payload).digest());
}

/** Constant-time string comparison (hashing first makes the lengths equal). */
export function safeEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}

/** Which role a presented token grants, if any. */
export function roleForToken(token: string, settings: TokenSettings): Role | null {
  if (settings.operatorToken && safeEqual(token, settings.operatorToken)) return 'operator';
  if (settings.viewerToken && safeEqual(token, settings.viewerToken)) return 'viewer';
  return null;
}

export function issueSession(role: Role, settings: TokenSettings, now = Date.now(), name?: string): { value: string; claim: SessionClaim } {
  const key = sessionKey(settings);
  if (!key) throw new Error('no token is configured; sessions are not used in open mode');
  const claim: SessionClaim = { role, issuedAt: now, expiresAt: now + SESSION_TTL_MS, nonce: randomBytes(12).toString('base64url'), ...(name ? { name } : {}) };
  const payload = b64url(JSON.stringify({ r: claim.role, iat: claim.issuedAt, exp: claim.expiresAt, n: claim.nonce, ...(name ? { u: name } : {}) }));
  return { value: `v1.${payload}.${sign(key, `v1.${payload}`)}`, claim };
}

/** `<payload>.<hmac>` with the session key under its own label (the sign-in transaction cookie); null without a key. */
export function signWithSessionKey(label: string, payload: string, settings: TokenSettings): string | null {
  const key = sessionKey(settings);
  return key ? `${payload}.${sign(key, `${label}\n${payload}`)}` : null;
}

/** The payload of a value signWithSessionKey made with the same label, or null. */
export function openSignedWithSessionKey(label: string, value: string, settings: TokenSettings): string | null {
  const key = sessionKey(settings);
  const dot = value.lastIndexOf('.');
  if (!key || dot <= 0) return null;
  const payload = value.slice(0, dot);
  return safeEqual(value.slice(dot + 1), sign(key, `${label}\n${payload}`)) ? payload : null;
}

/**
 * Logged-out sessions (nonce → expiry), until they would have expired anyway. This is the
 * process's copy; lib/auth/revocations.ts persists each logout and loads them back at boot, so a
 * logout survives a restart.
 */
const revoked = () => appPart('revokedSessions', () => new Map<string, number>());

export function revokeSession(claim: Pick<SessionClaim, 'nonce' | 'expiresAt'>): void {
  const now = Date.now();
  const map = revoked();
  for (const [nonce, expiresAt] of map) if (expiresAt < now) map.delete(nonce);
  map.set(claim.nonce, claim.expiresAt);
}

export function verifySession(value: string, settings: TokenSettings, now = Date.now()): SessionClaim | null {
  const key = sessionKey(settings);
  const [version, payload, signature] = value.split('.');
  if (!key || version !== 'v1' || !payload || !signature) return null;
  if (!safeEqual(signature, sign(key, `v1.${payload}`))) return null;
  let raw: { r?: unknown; iat?: unknown; exp?: unknown; n?: unknown; u?: unknown };
  try {
    raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof raw.exp !== 'number' || raw.exp <= now || typeof raw.iat !== 'number' || typeof raw.n !== 'string') return null;
  if (revoked().has(raw.n)) return null;
  // A viewer session needs a way to have got one: the viewer token, or sign-in through the provider.
  const role = raw.r === 'operator' && settings.operatorToken ? 'operator' : raw.r === 'viewer' && (settings.viewerToken || settings.oidcLogin) ? 'viewer' : null;
  if (!role) return null;
  return { role, issuedAt: raw.iat, expiresAt: raw.exp, nonce: raw.n, ...(typeof raw.u === 'string' ? { name: raw.u } : {}) };
}

/** A cookie's value; a value with broken percent-encoding is no cookie at all (never a 500). */
export function readCookie(cookieHeader: string | null, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

function isHttps(req: Request): boolean {
  const forwarded = req.headers.get('x-forwarded-proto');
  if (forwarded) return forwarded.split(',')[0].trim() === 'https';
  return new URL(req.url).protocol === 'https:';
}

/** httpOnly so page scripts cannot read it, SameSite=Lax so other sites cannot send it on mutations. */
export function sessionCookie(req: Request, value: string, maxAgeSeconds: number): string {
  return httpOnlyCookie(req, SESSION_COOKIE, value, maxAgeSeconds);
}

/** A cookie with the session cookie's protections (httpOnly, SameSite=Lax, Secure on https), on `path`. */
export function httpOnlyCookie(req: Request, name: string, value: string, maxAgeSeconds: number, path = '/'): string {
  const attrs = [`${name}=${value}`, `Path=${path}`, 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`];
  if (isHttps(req)) attrs.push('Secure');
  return attrs.join('; ');
}

declare module '../process-singleton' {
  interface AppParts {
    /** Logged-out sessions. */
    revokedSessions: Map<string, number>;
  }
}
