/**
 * Peers and the one resolution path, over HTTP. A configured peer's token reaches the
 * peer whether it is named or its URL is typed (normalised); an unknown URL sends no token.
 * Secrets never come back from the API. Bad input is refused with 400 naming the field.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { startTokenPeer, type TokenPeer } from '../support/token-peer';
import { artifactText, dispatch, postJson, waitForTask } from '../support/dispatch-api';

const TOKEN = 'sekrit-token-4711';
let app: AppServer;
let secure: TokenPeer;
let open: TokenPeer;

beforeAll(async () => {
  [secure, open] = await Promise.all([startTokenPeer(TOKEN), startTokenPeer()]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-peers-'));
  const config = path.join(dir, 'switchboard.json');
  fs.writeFileSync(config, JSON.stringify({ peers: [{ name: 'secure', url: secure.url, auth: { type: 'bearer', token: TOKEN }, timeoutSeconds: 7 }] }));
  app = await startApp({ SWITCHBOARD_CONFIG: config, SWITCHBOARD_CLIENT_TIMEOUT: '9' });
});
afterAll(async () => {
  await Promise.all([app?.stop(), secure?.close(), open?.close()]);
});

async function submittedTarget(taskId: string) {
  const view = await waitForTask(app.url, taskId);
  return { view, target: (view.events[0].payload as { target: Record<string, unknown> }).target };
}

describe('auth follows the peer, by name or by URL', () => {
  it.each([
    ['the peer name', { peer: 'secure' }],
    ['its URL with a trailing slash and an uppercase scheme', { url: '' }],
    ["its card's URL", { url: '/.well-known/agent-card.json' }],
  ])('dispatch by %s sends the bearer token and inherits the peer timeout', async (_label, how) => {
    const target = 'url' in how ? { url: how.url ? `${secure.url}${how.url}` : `HTTP://${secure.url.slice('http://'.length)}/` } : how;
    const before = secure.authorizations.length;
    const taskId = await dispatch(app.url, { ...target, text: 'hello token' });
    const { view, target: resolved } = await submittedTarget(taskId);
    expect(view.task.state).toBe('completed');
    expect(artifactText(view)).toBe('hello token');
    expect(view.task.peerName).toBe('secure');
    expect(resolved).toMatchObject({ peer: 'secure', timeoutMs: 7_000, timeoutSource: 'peer' });
    expect(secure.authorizations.slice(before)).toEqual([`Bearer ${TOKEN}`]);
  });

  it('an unknown URL gets no credentials and the global timeout', async () => {
    const taskId = await dispatch(app.url, { url: open.url, text: 'hello stranger' });
    const { view, target } = await submittedTarget(taskId);
    expect(view.task.state).toBe('completed');
    expect(view.task.peerName).toBeNull();
    expect(target).toMatchObject({ peer: null, matchedBy: 'none', timeoutMs: 9_000, timeoutSource: 'default' });
    expect(open.authorizations).toEqual([null]);
  });

  it('a per-dispatch timeout overrides the peer timeout', async () => {
    const taskId = await dispatch(app.url, { peer: 'secure', text: 'x', timeoutSeconds: 2.5 });
    const { target } = await submittedTarget(taskId);
    expect(target).toMatchObject({ timeoutMs: 2_500, timeoutSource: 'dispatch' });
  });

  it('the built-in peer "self" reaches this Switchboard\'s own default agent', async () => {
    const taskId = await dispatch(app.url, { peer: 'self', text: 'to myself' });
    const view = await waitForTask(app.url, taskId);
    expect(view.task.state).toBe('completed');
    expect(artifactText(view)).toBe('to myself');
  });
});

describe('dispatch input is refused with 400 naming the field', () => {
  it.each([
    [{ peer: 'secure', text: 'x', timeoutSeconds: 0 }, 'timeoutSeconds', /24 h/],
    [{ peer: 'secure', text: 'x', timeoutSeconds: 86_401 }, 'timeoutSeconds', /24 h/],
    [{ peer: 'secure', text: 'x', timeoutSeconds: 'soon' }, 'timeoutSeconds', /positive number of seconds/],
    [{ peer: 'secure', url: 'http://example.com', text: 'x' }, 'url', /exactly one of peer or url/],
    [{ text: 'x' }, 'peer', /exactly one of peer or url/],
    [{ url: 'ftp://example.com', text: 'x' }, 'url', /http/],
    [{ peer: 'secure' }, 'text', /./],
    [{ peer: 'secure', text: 'x', mode: 'eventually' }, 'mode', /./],
  ])('%j → field %s', async (body, field, message) => {
    const res = await postJson(`${app.url}/api/dispatch`, body);
    expect(res.status).toBe(400);
    const error = res.body.error as { field?: string; message: string };
    expect(error.field).toBe(field);
    expect(error.message).toMatch(message);
  });

  it('an unknown peer name is 404, naming peer', async () => {
    const res = await postJson(`${app.url}/api/dispatch`, { peer: 'nobody', text: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ field: 'peer' });
  });
});

describe('peers API', () => {
  it('lists the built-in and config peers without any secret', async () => {
    const res = await fetch(`${app.url}/api/peers`);
    const text = await res.text();
    expect(text).not.toContain(TOKEN);
    const { peers } = JSON.parse(text) as { peers: { name: string; source: string; auth: unknown }[] };
    expect(peers.find((p) => p.name === 'self')).toMatchObject({ source: 'builtin', auth: { type: 'none', configured: false } });
    expect(peers.find((p) => p.name === 'secure')).toMatchObject({ source: 'config', auth: { type: 'bearer', configured: true } });
  });

  it('create, read, patch and delete an API peer; secrets are write-only', async () => {
    const created = await postJson(`${app.url}/api/peers`, { name: 'keyed', url: `${open.url}/`, auth: { type: 'apiKey', header: 'X-Key', key: 'k-123456' }, headers: { 'X-Team': 'blue' } });
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body)).not.toContain('k-123456');
    expect(created.body.peer).toMatchObject({ name: 'keyed', auth: { type: 'apiKey', configured: true, header: 'X-Key' }, headerNames: ['X-Team'] });

    const dup = await postJson(`${app.url}/api/peers`, { name: 'other', url: open.url.toUpperCase().replace('HTTP', 'http') });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ field: 'url' });

    const patch = await fetch(`${app.url}/api/peers/keyed`, { method: 'PATCH', body: JSON.stringify({ timeoutSeconds: 12, auth: { type: 'apiKey', header: 'X-Key' } }) });
    expect(patch.status).toBe(200);
    expect(await patch.json()).toMatchObject({ peer: { timeoutSeconds: 12, auth: { type: 'apiKey', configured: true } } });

    const tested = await postJson(`${app.url}/api/peers/keyed/test`, {});
    expect(tested.body).toMatchObject({ reachable: true, protocolVersion: '0.3', skills: [{ id: 'echo' }] });

    expect((await fetch(`${app.url}/api/peers/keyed`, { method: 'DELETE' })).status).toBe(204);
    expect((await fetch(`${app.url}/api/peers/keyed`)).status).toBe(404);
  });

  it('config and built-in peers are read-only over the API', async () => {
    for (const name of ['secure', 'self']) {
      const res = await fetch(`${app.url}/api/peers/${name}`, { method: 'PATCH', body: JSON.stringify({ notes: 'x' }) });
      expect(res.status).toBe(409);
    }
  });

  it('a bad peer body is refused naming the field', async () => {
    const res = await postJson(`${app.url}/api/peers`, { name: 'bad', url: open.url, timeoutSeconds: -1 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ field: 'timeoutSeconds' });
  });
});
