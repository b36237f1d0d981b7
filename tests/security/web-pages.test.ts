/**
 * In open mode a web page cannot drive the agents. The A2A surface refuses a
 * foreign Origin, `Sec-Fetch-Site: cross-site` and (with no API key) a Host that is not loopback
 * or the public URL's (DNS rebinding); the agent card does not reflect X-Forwarded-Host unless a
 * proxy is trusted, and is never publicly cacheable when it reflects the request's Host.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { rawRequest, rawRpc } from '../support/raw-http';

const send = { message: { kind: 'message', messageId: 'web-1', role: 'user', parts: [{ kind: 'text', text: 'from a page' }] } };

let app: AppServer;
let publicApp: AppServer;

beforeAll(async () => {
  [app, publicApp] = await Promise.all([startApp(), startApp({ SWITCHBOARD_PUBLIC_URL: 'https://hub.example.com' })]);
});
afterAll(async () => {
  await Promise.all([app?.stop(), publicApp?.stop()]);
});

describe('the A2A endpoint refuses web pages', () => {
  it('refuses a foreign Origin and Sec-Fetch-Site: cross-site, on every agent route', async () => {
    for (const path of ['/a2a', '/a2a/echo', '/a2a/slow']) {
      const foreign = await rawRpc(`${app.url}${path}`, 'message/send', send, { origin: 'http://evil.example' });
      expect(foreign.status).toBe(403);
      expect(foreign.json().error).toMatchObject({ code: 'cross_origin' });
      const crossSite = await rawRpc(`${app.url}${path}`, 'ListTasks', {}, { 'sec-fetch-site': 'cross-site' });
      expect(crossSite.status).toBe(403);
    }
  });

  it('refuses a rebound Host in open mode, for calls and for cards', async () => {
    const rebound = await rawRpc(`${app.url}/a2a/echo`, 'ListTasks', {}, { host: 'rebind.attacker.example' });
    expect(rebound.status).toBe(403);
    expect(rebound.json().error).toMatchObject({ code: 'untrusted_host' });
    const card = await rawRequest(`${app.url}/.well-known/agent-card.json`, { headers: { host: `rebind.attacker.example:${app.port}` } });
    expect(card.status).toBe(403);
  });

  it('still serves programs (no Origin) and same-origin pages', async () => {
    const program = await rawRpc(`${app.url}/a2a/echo`, 'message/send', send);
    expect(program.json().result).toMatchObject({ status: { state: 'completed' } });
    const samePage = await rawRpc(`${app.url}/a2a/echo`, 'ListTasks', {}, { origin: app.url, 'sec-fetch-site': 'same-origin' });
    expect(samePage.json().result).toHaveProperty('tasks');
    const localhost = await rawRpc(`${app.url}/a2a/echo`, 'ListTasks', {}, { host: `localhost:${app.port}` });
    expect(localhost.status).toBe(200);
  });
});

describe('agent card origin and caching', () => {
  it('reflects only the Host (not X-Forwarded-Host) without a trusted proxy, and is not publicly cacheable', async () => {
    const res = await rawRequest(`${app.url}/a2a/echo/.well-known/agent-card.json`, {
      headers: { host: `localhost:${app.port}`, 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    expect(res.status).toBe(200);
    expect(res.json().url).toBe(`http://localhost:${app.port}/a2a/echo`);
    // A short max-age for the caller's own cache, never a shared one.
    expect(res.headers['cache-control']).toBe('private, max-age=60');
    expect(String(res.headers.vary)).toMatch(/Host/);
    expect(String(res.headers.vary)).toMatch(/X-Forwarded-Host/);
  });

  it('uses SWITCHBOARD_PUBLIC_URL when set (cacheable), and that host is trusted in open mode', async () => {
    const res = await rawRequest(`${publicApp.url}/.well-known/agent-card.json`, { headers: { 'x-forwarded-host': 'evil.example' } });
    expect(res.json().url).toBe('https://hub.example.com/a2a');
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    const viaPublicHost = await rawRpc(`${publicApp.url}/a2a/echo`, 'ListTasks', {}, { host: 'hub.example.com' });
    expect(viaPublicHost.status).toBe(200);
    const other = await rawRpc(`${publicApp.url}/a2a/echo`, 'ListTasks', {}, { host: 'other.example.com' });
    expect(other.status).toBe(403);
  });
});
