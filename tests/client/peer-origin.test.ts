/**
 * A peer's secrets follow its configured origin. A peer whose card names an
 * endpoint on another origin gets its calls there without the token, unless the peer opted in
 * (credentialOrigins). Moving a peer's URL to another origin drops its stored secret and
 * headers unless new ones are given.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { startTokenPeer, type TokenPeer } from '../support/token-peer';
import { dispatch, postJson, waitForTask } from '../support/dispatch-api';

const TOKEN = 'origin-bound-token-99';

/** Serves only an agent card, naming `endpoint` (on another origin); records card requests' auth. */
async function startCardHost(endpoint: () => string): Promise<{ url: string; cardAuth: (string | null)[]; close(): Promise<void> }> {
  const cardAuth: (string | null)[] = [];
  const server = http.createServer((req, res) => {
    cardAuth.push(req.headers.authorization ?? null);
    const card = { protocolVersion: '0.3.0', name: 'Elsewhere', url: endpoint(), preferredTransport: 'JSONRPC', capabilities: { streaming: false }, skills: [] };
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(card));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, cardAuth, close: () => new Promise((r) => server.close(() => r())) };
}

let app: AppServer;
let endpointPeer: TokenPeer;
let plainHost: Awaited<ReturnType<typeof startCardHost>>;
let trustingHost: Awaited<ReturnType<typeof startCardHost>>;

beforeAll(async () => {
  endpointPeer = await startTokenPeer();
  [plainHost, trustingHost] = await Promise.all([startCardHost(() => `${endpointPeer.url}/rpc`), startCardHost(() => `${endpointPeer.url}/rpc/`)]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-origin-'));
  const config = path.join(dir, 'switchboard.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      peers: [
        { name: 'elsewhere', url: plainHost.url, auth: { type: 'bearer', token: TOKEN } },
        { name: 'trusting', url: trustingHost.url, auth: { type: 'bearer', token: TOKEN }, credentialOrigins: [endpointPeer.url] },
      ],
    }),
  );
  app = await startApp({ SWITCHBOARD_CONFIG: config });
});
afterAll(async () => {
  await Promise.all([app?.stop(), endpointPeer?.close(), plainHost?.close(), trustingHost?.close()]);
});

const patchPeer = (name: string, body: unknown) =>
  fetch(`${app.url}/api/peers/${name}`, { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as { peer: { auth: { configured: boolean }; headerNames: string[] } } }));

describe("a peer's credentials go to its configured origin only", () => {
  it('the card names another origin: the call there carries no token; the card request at the peer does', async () => {
    const before = endpointPeer.authorizations.length;
    const view = await waitForTask(app.url, await dispatch(app.url, { peer: 'elsewhere', text: 'where does my token go' }));
    expect(view.task.state).toBe('completed');
    expect(plainHost.cardAuth).toContain(`Bearer ${TOKEN}`);
    expect(endpointPeer.authorizations.slice(before)).toEqual([null]);
  });

  it('dispatching to that endpoint URL directly does not inherit the token either', async () => {
    // The endpoint is cached on the peer row after the first dispatch, so the URL matches it.
    const before = endpointPeer.authorizations.length;
    const view = await waitForTask(app.url, await dispatch(app.url, { url: `${endpointPeer.url}/rpc`, text: 'by endpoint' }));
    expect(view.task.state).toBe('completed');
    expect(endpointPeer.authorizations.slice(before)).toEqual([null]);
  });

  it('an origin the peer opted in (credentialOrigins) receives the token', async () => {
    const before = endpointPeer.authorizations.length;
    const view = await waitForTask(app.url, await dispatch(app.url, { peer: 'trusting', text: 'trusted' }));
    expect(view.task.state).toBe('completed');
    expect(endpointPeer.authorizations.slice(before)).toEqual([`Bearer ${TOKEN}`]);
    const listed = (await (await fetch(`${app.url}/api/peers/trusting`)).json()) as { peer: { credentialOrigins: string[] } };
    expect(listed.peer.credentialOrigins).toEqual([endpointPeer.url]);
  });

  it('credentialOrigins must be origins', async () => {
    const res = await postJson(`${app.url}/api/peers`, { name: 'badorigins', url: 'https://a.example', credentialOrigins: ['https://b.example/path'] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ field: 'credentialOrigins.0' });
  });
});

describe("moving a peer's URL to another origin drops its secret", () => {
  it('drops the token and headers, keeps them on the same origin, takes new ones when given', async () => {
    const created = await postJson(`${app.url}/api/peers`, { name: 'mover', url: 'https://old.example/agent', auth: { type: 'bearer', token: 'old-secret-123' }, headers: { 'X-Team': 'blue' } });
    expect(created.status).toBe(201);

    const samePlace = await patchPeer('mover', { url: 'https://old.example/other-agent' });
    expect(samePlace.body.peer).toMatchObject({ auth: { configured: true }, headerNames: ['X-Team'] });

    const moved = await patchPeer('mover', { url: 'https://new.example/agent' });
    expect(moved.status).toBe(200);
    expect(moved.body.peer).toMatchObject({ auth: { type: 'bearer', configured: false }, headerNames: [] });

    const formStyle = await patchPeer('mover', { url: 'https://newer.example/agent', auth: { type: 'bearer', token: '' } });
    expect(formStyle.body.peer.auth.configured).toBe(false);

    const withNew = await patchPeer('mover', { url: 'https://newest.example/agent', auth: { type: 'bearer', token: 'new-secret-456' }, headers: { 'X-Team': 'red' } });
    expect(withNew.body.peer).toMatchObject({ auth: { configured: true }, headerNames: ['X-Team'] });
  });
});
