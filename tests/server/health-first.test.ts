/**
 * GET /api/health answered by the HTTP server's listener before Next.js (decision 378): a real
 * http.Server whose own handler stands for Next's; the answer is the route's (the store only
 * for a probe, the store's health for a viewer), and every other request, a throttled wrong
 * token included, still reaches the handler.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useFreshDatabase } from '../support/in-process';

const VIEWER = 'health-first-viewer-token-0123456789';
let server: http.Server;
let base: string;
const reachedNext: string[] = [];

beforeAll(async () => {
  useFreshDatabase({ SWITCHBOARD_VIEWER_TOKEN: VIEWER, SWITCHBOARD_OPERATOR_TOKEN: 'health-first-operator-token-0123456789' });
  const { answerHealthFirst } = await import('@/lib/server/health-first');
  server = http.createServer((req, res) => {
    reachedNext.push(`${req.method} ${req.url}`);
    res.end('next');
  });
  answerHealthFirst(server);
  answerHealthFirst(server); // applied once: a second call wraps nothing again
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function get(path: string, init: RequestInit = {}): Promise<{ status: number; text: string; type: string | null }> {
  const res = await fetch(base + path, init);
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') };
}

describe('health before Next', () => {
  it('answers an unauthenticated probe itself, with the store only', async () => {
    reachedNext.length = 0;
    const probe = await get('/api/health');
    expect(probe.status).toBe(200);
    expect(probe.type).toBe('application/json');
    expect(JSON.parse(probe.text)).toEqual({ ok: true, store: 'sqlite' });
    expect(JSON.parse((await get('/api/health?from=lb')).text)).toEqual({ ok: true, store: 'sqlite' });
    expect(reachedNext).toEqual([]);
  });

  it("answers a viewer with the store's health, as the route does", async () => {
    reachedNext.length = 0;
    const viewer = await get('/api/health', { headers: { authorization: `Bearer ${VIEWER}` } });
    expect(JSON.parse(viewer.text)).toEqual({ ok: true, store: 'sqlite' });
    expect(reachedNext).toEqual([]);
  });

  it('leaves every other request to Next', async () => {
    reachedNext.length = 0;
    expect((await get('/api/healthz')).text).toBe('next');
    expect((await get('/api/health/x')).text).toBe('next');
    expect((await get('/api/status')).text).toBe('next');
    expect((await get('/api/health', { method: 'POST', body: '{}' })).text).toBe('next');
    expect(reachedNext).toEqual(['GET /api/healthz', 'GET /api/health/x', 'GET /api/status', 'POST /api/health']);
  });

  it("leaves a throttled wrong token to the route's 429", async () => {
    reachedNext.length = 0;
    // Wrong tokens from one address until the login throttle holds it (it counts each guess).
    for (let i = 0; i < 100 && reachedNext.length === 0; i++) await get('/api/health', { headers: { authorization: `Bearer wrong-guess-${i}` } });
    expect(reachedNext.length).toBeGreaterThan(0);
    expect(reachedNext.every((r) => r === 'GET /api/health')).toBe(true);
  });
});
