/**
 * A logout survives a restart, wrong tokens are
 * throttled with 429 + Retry-After, a cookie with broken percent-encoding is no cookie (never a
 * 500), and pages carry the security headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { rawRequest } from '../support/raw-http';

const OPERATOR = 'sessions-operator-token-0123456789';
const METRICS = 'sessions-metrics-token-0123456789';
let app: AppServer;

beforeAll(async () => {
  // Behind a (simulated) proxy: the tests name each request's source in X-Forwarded-For.
  app = await startApp({ SWITCHBOARD_OPERATOR_TOKEN: OPERATOR, SWITCHBOARD_METRICS_TOKEN: METRICS, SWITCHBOARD_LOGIN_MAX_FAILURES: '3', SWITCHBOARD_LOGIN_WINDOW: '600', SWITCHBOARD_TRUST_PROXY: '1' });
});
afterAll(async () => app?.stop());

const sameOrigin = () => ({ 'content-type': 'application/json', origin: app.url });

async function logIn(token: string): Promise<{ status: number; cookie: string | null; headers: Headers }> {
  const res = await fetch(`${app.url}/api/session`, { method: 'POST', headers: sameOrigin(), body: JSON.stringify({ token }) });
  const cookie = res.headers.get('set-cookie')?.split(';')[0] ?? null;
  return { status: res.status, cookie, headers: res.headers };
}

const tasksWith = (cookie: string) => fetch(`${app.url}/api/tasks`, { headers: { cookie } });

describe('sessions', () => {
  it('a logged-out cookie stays logged out after a restart', async () => {
    const { cookie } = await logIn(OPERATOR);
    expect((await tasksWith(cookie!)).status).toBe(200);
    const out = await fetch(`${app.url}/api/session`, { method: 'DELETE', headers: { ...sameOrigin(), cookie: cookie! } });
    expect(out.status).toBe(204);
    expect((await tasksWith(cookie!)).status).toBe(401);

    const { cookie: kept } = await logIn(OPERATOR); // a session that was not logged out survives too
    await app.stop();
    await app.restart();
    expect((await tasksWith(cookie!)).status).toBe(401);
    expect((await tasksWith(kept!)).status).toBe(200);
  });

  it('a cookie with broken percent-encoding is ignored: pages and the API never answer 500', async () => {
    for (const path of ['/', '/login', '/tasks/none', '/peers', '/api/session', '/api/tasks']) {
      const res = await rawRequest(`${app.url}${path}`, { headers: { cookie: 'sb_session=%E0%A4%A; other=%zz' } });
      expect(res.status, path).toBeLessThan(500);
    }
  });

  it('refuses a login body over its small limit with 413', async () => {
    const res = await fetch(`${app.url}/api/session`, { method: 'POST', headers: sameOrigin(), body: JSON.stringify({ token: 'x'.repeat(64 * 1024) }) });
    expect(res.status).toBe(413);
  });

  it('pages carry a CSP that forbids framing, nosniff and a referrer policy', async () => {
    for (const path of ['/login', '/api/health']) {
      const res = await fetch(`${app.url}${path}`);
      expect(res.headers.get('content-security-policy'), path).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('same-origin');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  // The throttle is per source and per token, and never refuses a right credential.
  it('throttles wrong tokens per source with 429 + Retry-After; the right tokens keep working', async () => {
    const from = (source: string) => ({ ...sameOrigin(), 'x-forwarded-for': source });
    const logInFrom = (source: string, token: string) =>
      fetch(`${app.url}/api/session`, { method: 'POST', headers: from(source), body: JSON.stringify({ token }) });
    for (let i = 0; i < 2; i++) expect((await logInFrom('203.0.113.7', `wrong-token-${i}-0123456789`)).status).toBe(401);
    // A wrong bearer token anywhere (here: a page) counts too, so no route is a free oracle.
    const page = await rawRequest(`${app.url}/`, { headers: { authorization: 'Bearer wrong-token-page-0123456789', 'x-forwarded-for': '203.0.113.7' } });
    expect(page.status).toBeLessThan(500);
    const throttled = await logInFrom('203.0.113.7', 'wrong-token-3-0123456789');
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    const bearerWrong = await fetch(`${app.url}/api/tasks`, { headers: { authorization: 'Bearer wrong-token-4-0123456789', 'x-forwarded-for': '203.0.113.7' } });
    expect(bearerWrong.status).toBe(429);

    // The right token from the throttled source, as a login and as a bearer token, still works.
    expect((await logInFrom('203.0.113.7', OPERATOR)).status).toBe(200);
    for (const path of ['/api/tasks', '/api/session']) {
      const bearer = await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${OPERATOR}`, 'x-forwarded-for': '203.0.113.7' } });
      expect(bearer.status, path).toBe(200);
    }
    // Another source is not throttled: a wrong token there is a plain 401.
    expect((await logInFrom('198.51.100.9', 'wrong-token-5-0123456789')).status).toBe(401);
    // One stale token sent from many sources is throttled on its own, without throttling them.
    const stale = 'stale-script-token-0123456789';
    for (let i = 0; i < 3; i++) expect((await logInFrom(`192.0.2.${i}`, stale)).status).toBe(401);
    expect((await logInFrom('192.0.2.200', stale)).status).toBe(429);
    expect((await logInFrom('192.0.2.201', 'another-wrong-token-0123456789')).status).toBe(401);
  });

  it('a right credential on a route it does not open is refused but never counted as a guess', async () => {
    const from = { authorization: `Bearer ${METRICS}`, 'x-forwarded-for': '203.0.113.50' };
    for (let i = 0; i < 5; i++) expect((await fetch(`${app.url}/api/tasks`, { headers: from })).status).toBe(401);
    expect((await fetch(`${app.url}/api/metrics`, { headers: from })).status).toBe(200);
    const wrong = await fetch(`${app.url}/api/tasks`, { headers: { authorization: 'Bearer wrong-token-50-0123456789', 'x-forwarded-for': '203.0.113.50' } });
    expect(wrong.status).toBe(401); // the source has no failures yet
  });
});
