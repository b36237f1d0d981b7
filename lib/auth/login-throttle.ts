/**
 * Throttles guessing at the dashboard tokens (design §7): after SWITCHBOARD_LOGIN_MAX_FAILURES
 * wrong tokens within SWITCHBOARD_LOGIN_WINDOW, every token check (the login form and
 * `Authorization: Bearer` on /api) answers 429 with Retry-After until the window ends.
 *
 * One counter for the whole process, not one per client address: behind `next start` the client
 * address is only what X-Forwarded-For claims, which a guesser can vary at will. A session that
 * already exists keeps working while logins are throttled.
 */
import { getSettings } from '../config/settings';
import { processSingleton } from '../process-singleton';

interface Window {
  startedAt: number;
  failures: number;
}

const state = () => processSingleton<Window>('login-throttle', () => ({ startedAt: 0, failures: 0 }));

function current(now: number): Window {
  const w = state();
  if (now - w.startedAt >= getSettings().loginWindowMs) {
    w.startedAt = now;
    w.failures = 0;
  }
  return w;
}

/** Seconds until tokens are checked again, or null when they are checked now. */
export function loginRetryAfter(now = Date.now()): number | null {
  const w = current(now);
  if (w.failures < getSettings().loginMaxFailures) return null;
  return Math.max(1, Math.ceil((w.startedAt + getSettings().loginWindowMs - now) / 1000));
}

export function recordLoginFailure(now = Date.now()): void {
  current(now).failures++;
}

export function throttledResponse(retryAfterSeconds: number): Response {
  return Response.json(
    { error: { code: 'too_many_attempts', message: `too many wrong tokens; try again in ${retryAfterSeconds} s` } },
    { status: 429, headers: { 'Retry-After': String(retryAfterSeconds) } },
  );
}
