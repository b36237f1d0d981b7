/**
 * Throttles guessing at the dashboard tokens (decision 170). Wrong tokens are counted
 * per source address and per presented token; a key with SWITCHBOARD_LOGIN_MAX_FAILURES wrong
 * tokens within SWITCHBOARD_LOGIN_WINDOW answers 429 with Retry-After until its window ends.
 *
 * A right credential is always accepted, throttled or not: the callers check it before they ask
 * here, so no one can lock the operator, a viewer, a scraper or a launched agent out by sending
 * wrong tokens. What keeps a guesser out is the tokens' length (at least 16 characters); the
 * throttle bounds how fast one source (or one stale token) can fill the log with refusals.
 *
 * The source is the address the server's own listener saw (remote-address.ts), never a header the
 * caller wrote: `next start` keeps a caller's own X-Forwarded-For, so keying on it let a guesser
 * pick a new source for every try. Behind a reverse proxy (SWITCHBOARD_TRUST_PROXY) the last
 * X-Forwarded-For entry is the proxy's word. Both maps are bounded (oldest key dropped).
 */
import { createHash } from 'node:crypto';
import { getSettings } from '../config/settings';
import { appPart } from '../process-singleton';
import type { HeaderSource } from './web-origin';
import { remoteAddressOf } from './remote-address';

interface Window {
  startedAt: number;
  failures: number;
}

/** At most this many sources and tokens are tracked; the least recently failing is forgotten first. */
export const MAX_THROTTLE_KEYS = 10_000;
const MAX_SOURCE_CHARS = 64;

const windows = () => appPart('loginThrottle', () => new Map<string, Window>());

/** The address a request came from, as far as the server can tell (see the file comment). */
export function sourceOf(headers: HeaderSource, trustProxy?: boolean): string {
  return `src:${remoteAddressOf(headers, trustProxy)?.slice(0, MAX_SOURCE_CHARS) ?? 'unknown'}`;
}

const tokenKey = (token: string) => `tok:${createHash('sha256').update(token).digest('base64url').slice(0, 22)}`;

function keysOf(source: string, token: string | null): string[] {
  return token === null ? [source] : [source, tokenKey(token)];
}

function live(key: string, now: number): Window | null {
  const w = windows().get(key);
  if (!w) return null;
  if (now - w.startedAt < getSettings().loginWindowMs) return w;
  windows().delete(key);
  return null;
}

/**
 * Seconds until wrong tokens from this source (or this token) are checked again, or null when
 * they are checked now. Callers ask only after the token turned out not to be a credential.
 */
export function loginRetryAfter(source: string, token: string | null, now = Date.now()): number | null {
  const { loginMaxFailures, loginWindowMs } = getSettings();
  let until = 0;
  for (const key of keysOf(source, token)) {
    const w = live(key, now);
    if (w && w.failures >= loginMaxFailures) until = Math.max(until, w.startedAt + loginWindowMs);
  }
  return until > 0 ? Math.max(1, Math.ceil((until - now) / 1000)) : null;
}

export function recordLoginFailure(source: string, token: string | null, now = Date.now()): void {
  const map = windows();
  for (const key of keysOf(source, token)) {
    const w = live(key, now) ?? { startedAt: now, failures: 0 };
    w.failures++;
    map.delete(key); // re-inserted last: the map's order is least recently failing first
    map.set(key, w);
    while (map.size > MAX_THROTTLE_KEYS) map.delete(map.keys().next().value as string);
  }
}

export function throttledResponse(retryAfterSeconds: number): Response {
  return Response.json(
    { error: { code: 'too_many_attempts', message: `too many wrong tokens from this address; try again in ${retryAfterSeconds} s` } },
    { status: 429, headers: { 'Retry-After': String(retryAfterSeconds) } },
  );
}

declare module '../process-singleton' {
  interface AppParts {
    /** Failed logins per address. */
    loginThrottle: Map<string, Window>;
  }
}
