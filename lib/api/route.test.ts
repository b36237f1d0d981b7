import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ClientError } from '../protocol/client-error';
import { validateTimeoutOverride } from '../peers/timeouts';
import { apiRoute } from './route';

const ctx = { params: Promise.resolve({}) };
const post = (body: string, headers: Record<string, string> = {}) =>
  new Request('http://127.0.0.1:3000/api/x', { method: 'POST', body, headers: { 'content-type': 'application/json', host: '127.0.0.1:3000', ...headers } });

describe('the /api route wrapper', () => {
  it('answers an unexpected failure with a JSON 500, not an HTML page', async () => {
    const route = apiRoute({ role: 'viewer' }, () => {
      throw new Error('boom');
    });
    const res = await route(new Request('http://127.0.0.1:3000/api/x', { headers: { host: '127.0.0.1:3000' } }), ctx);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: { code: 'internal', message: 'internal error; see the server log' } });
  });

  it('bounds, parses and validates the body, naming the field', async () => {
    const route = apiRoute({ role: 'operator', body: z.object({ name: z.string() }), maxBodyBytes: 64 }, ({ body }) => Response.json(body));
    expect(await (await route(post('{"name":"a"}'), ctx)).json()).toEqual({ name: 'a' });
    expect((await route(post(JSON.stringify({ name: 'x'.repeat(100) })), ctx)).status).toBe(413);
    const bad = await route(post('{"name":1}'), ctx);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.field).toBe('name');
    const deep = apiRoute({ role: 'operator', body: z.unknown() }, () => new Response('ran'));
    const nested = await deep(post('['.repeat(200) + ']'.repeat(200)), ctx);
    expect(nested.status).toBe(400);
    expect((await nested.json()).error.message).toMatch(/nests deeper/);
  });

  it('refuses a cross-origin mutation before anything else', async () => {
    const route = apiRoute({ role: 'public' }, () => new Response('ran'));
    const res = await route(post('{}', { origin: 'http://evil.example' }), ctx);
    expect(res.status).toBe(403);
  });

  it('renders what peers and dispatch refuse as the REST error, naming the field', async () => {
    const get = () => new Request('http://127.0.0.1:3000/api/x', { headers: { host: '127.0.0.1:3000' } });
    const conflict = apiRoute({ role: 'public' }, () => {
      throw new ClientError(409, 'read_only', 'peer a is managed by the config file', 'name');
    });
    const res = await conflict(get(), ctx);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: { code: 'read_only', message: 'peer a is managed by the config file', field: 'name' } });
    const badTimeout = apiRoute({ role: 'public' }, () => Response.json(validateTimeoutOverride(-1)));
    const refused = await badTimeout(get(), ctx);
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatchObject({ code: 'invalid_request', field: 'timeoutSeconds' });
  });
});
