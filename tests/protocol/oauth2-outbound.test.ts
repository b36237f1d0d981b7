/**
 * OAuth2 outbound: a peer whose card declares an OAuth2 client-credentials flow
 * (an @a2a-js/sdk 1.3.0 server guarded by a jose check of the provider's tokens) is called with
 * an access token a real `oidc-provider` on the peer's origin issued to the hub. The token is
 * cached across dispatches, fetched again once on a 401, and the client secret never goes to a
 * token URL the card names on another origin; a wrong secret fails the task with the reason.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type express from 'express';
import { createRemoteJWKSet, jwtVerify, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { artifactText, dispatch, waitForTask } from '../support/dispatch-api';
import { sdkChunkText, startSdkPeer, type SdkPeer } from '../support/sdk-peer';
import { clientCredentialsClient, createTestProvider, type TestProvider } from '../support/oidc-provider';

const AUDIENCE = 'https://sdk-peer.test/a2a';
const SECRETS = { hub: 'hub-secret-0123456789abcdef', other: 'other-secret-0123456789abcdef', post: 'post-secret-0123456789abcdef' };

let app: AppServer;
let guarded: SdkPeer;
let foreignCard: SdkPeer;
/** An HTTP+JSON-only peer with the same guard: the token goes over the other HTTP binding too. */
let restPeer: SdkPeer;
let provider: TestProvider;
/** A token endpoint on another origin, named by `foreignCard`'s card: it must never be called. */
let trap: http.Server;
const trapRequests: string[] = [];
/** Tokens the peers answer 401 to (as if revoked), and whether they refuse every token. */
const revoked = new Set<string>();
let refuseAll = false;

const oauth2Scheme = (tokenUrl: string) => ({ oauth2: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl, scopes: { a2a: 'call the agent' } } } } } });

/** The peer's check on its JSON-RPC calls (its card stays public): a JWT the provider signed for our audience, not revoked. */
function guard(): express.RequestHandler {
  let keys: ReturnType<typeof createRemoteJWKSet> | null = null;
  return (req, res, next) => {
    if (req.method !== 'POST') return next();
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const refuse = (why: string) => res.status(401).set('WWW-Authenticate', `Bearer error="invalid_token", error_description="${why}"`).json({ error: why });
    if (!token) return refuse('no token');
    if (refuseAll || revoked.has(token)) return refuse('revoked');
    keys ??= createRemoteJWKSet(new URL(`${provider.issuer}/jwks`));
    jwtVerify(token, keys, { issuer: provider.issuer, audience: AUDIENCE }).then(
      () => next(),
      (err: Error) => refuse(err.message),
    );
  };
}

function writeConfig(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oauth2-outbound-'));
  const oauth2 = (clientId: keyof typeof SECRETS, extra: Record<string, unknown> = {}) => ({ type: 'oauth2', clientId, clientSecret: SECRETS[clientId], scopes: ['a2a'], ...extra });
  const config = {
    peers: [
      // Token URL from the card (same origin as the peer).
      { name: 'guarded', url: guarded.url, auth: oauth2('hub') },
      { name: 'wrong-secret', url: guarded.endpoint, auth: { ...oauth2('hub'), clientId: 'other', clientSecret: 'not-the-secret' } },
      // The card names a token URL on another origin: refused without a configured one...
      { name: 'foreign-card', url: foreignCard.url, auth: oauth2('other') },
      // ...and the configured one is used instead of it.
      { name: 'configured', url: foreignCard.endpoint, auth: oauth2('post', { tokenUrl: `${provider.issuer}/token`, authMethod: 'client_secret_post' }) },
      { name: 'rest', url: restPeer.url, auth: oauth2('other', { tokenUrl: `${provider.issuer}/token` }) },
    ],
  };
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
  return path.join(dir, 'config.json');
}

beforeAll(async () => {
  trap = http.createServer((req, res) => {
    trapRequests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ access_token: 'stolen', token_type: 'Bearer', expires_in: 300 }));
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  const trapUrl = `http://127.0.0.1:${(trap.address() as { port: number }).port}/token`;
  guarded = await startSdkPeer({
    guard: guard(),
    securitySchemes: (base) => oauth2Scheme(`${base}/oauth/token`),
    mount: async (peerApp, base) => {
      const clients = [clientCredentialsClient('hub', SECRETS.hub), clientCredentialsClient('other', SECRETS.other), clientCredentialsClient('post', SECRETS.post, 'client_secret_post')];
      provider = await createTestProvider(`${base}/oauth`, clients, { 'urn:sdk-peer': { audience: AUDIENCE, scope: 'a2a', accessTokenTTL: 600 } }, 'urn:sdk-peer');
      peerApp.use('/oauth', provider.callback);
    },
  });
  foreignCard = await startSdkPeer({ guard: guard(), securitySchemes: () => oauth2Scheme(trapUrl) });
  restPeer = await startSdkPeer({ guard: guard(), restOnly: true });
  app = await startApp({ SWITCHBOARD_CONFIG: writeConfig(), SWITCHBOARD_LOG_LEVEL: 'info' });
});
afterAll(async () => {
  await Promise.all([app?.stop(), guarded?.close(), foreignCard?.close(), restPeer?.close(), new Promise((r) => trap?.close(r))]);
});

const bearerOf = (peer: SdkPeer) => peer.requests.map((r) => String(r.headers.authorization ?? ''));
const tokenRequestsOf = (client: string) => provider.tokenRequests.filter((c) => c === client).length;

async function run(peer: string, text = 'chunks 2 every 10ms', mode?: string) {
  return waitForTask(app.url, await dispatch(app.url, { peer, text, ...(mode ? { mode } : {}) }));
}

describe('OAuth2 client credentials to a peer', () => {
  it('dispatches with a token from the card-declared token endpoint, one token request for several dispatches', async () => {
    const views = [];
    for (let i = 0; i < 3; i++) views.push(await run('guarded'));
    for (const view of views) expect(view.task.state, view.task.endReason ?? '').toBe('completed');
    expect(tokenRequestsOf('hub')).toBe(1);
    const sent = bearerOf(guarded).filter((h) => h.startsWith('Bearer '));
    expect(sent.length).toBeGreaterThanOrEqual(3);
    expect(new Set(sent).size).toBe(1);
    expect(decodeJwt(sent[0].slice(7))).toMatchObject({ client_id: 'hub', aud: AUDIENCE, scope: 'a2a' });
    expect(views[0].snapshot.artifacts?.flatMap((a) => a.parts).map((p) => p.text).join('')).toBe([0, 1].map(sdkChunkText).join(''));
  });

  it('a 401 to the cached token fetches one new token and the dispatch completes', async () => {
    const before = tokenRequestsOf('hub');
    const current = bearerOf(guarded).at(-1)!.slice(7);
    revoked.add(current);
    const view = await run('guarded');
    expect(view.task.state, view.task.endReason ?? '').toBe('completed');
    expect(tokenRequestsOf('hub')).toBe(before + 1);
    expect(bearerOf(guarded).at(-1)).not.toBe(`Bearer ${current}`);
  });

  it('a peer that refuses every token gets one refresh, then the task fails with the 401', async () => {
    const before = tokenRequestsOf('hub');
    refuseAll = true;
    try {
      const view = await run('guarded');
      expect(view.task.state).toBe('failed');
      expect(view.task.endReason).toContain('HTTP 401 from the peer: credentials refused');
      expect(tokenRequestsOf('hub')).toBe(before + 1);
    } finally {
      refuseAll = false;
    }
  });

  it('a wrong client secret fails the task with the token endpoint refusal, never sending the peer a request', async () => {
    const peerCalls = guarded.requests.length;
    const view = await run('wrong-secret');
    expect(view.task.state).toBe('failed');
    expect(view.task.endReason).toMatch(/peer wrong-secret: the token endpoint http:\/\/127\.0\.0\.1:\d+\/oauth\/token refused the client credentials: HTTP 401 invalid_client/);
    expect(view.task.endReason).not.toContain('not-the-secret');
    expect(guarded.requests.length).toBe(peerCalls);
  });

  it("refuses a card's token URL on another origin, and uses the configured one instead", async () => {
    const refused = await run('foreign-card');
    expect(refused.task.state).toBe('failed');
    expect(refused.task.endReason).toContain("the card's OAuth2 token URL");
    expect(refused.task.endReason).toContain('is on another origin than the peer');

    const configured = await run('configured');
    expect(configured.task.state, configured.task.endReason ?? '').toBe('completed');
    expect(tokenRequestsOf('(form)')).toBe(1); // client_secret_post: the credentials are in the body
    expect(trapRequests).toEqual([]);
    // The token went to the peer, and to no other origin.
    expect(bearerOf(foreignCard).filter((h) => h.startsWith('Bearer ')).length).toBeGreaterThan(0);
  });

  it('a background dispatch over HTTP+JSON is sent and followed with the token', async () => {
    const view = await run('rest', 'chunks 3 every 100ms', 'background');
    expect(view.task.state, view.task.endReason ?? '').toBe('completed');
    const calls = restPeer.requests.map((r) => r.method);
    expect(calls).toContain('POST /message:send');
    expect(calls.some((m) => m?.startsWith('GET /tasks/') || m?.includes(':subscribe'))).toBe(true);
    expect(restPeer.requests.every((r) => String(r.headers.authorization).startsWith('Bearer '))).toBe(true);
    expect(artifactText(view)).toBe([0, 1, 2].map(sdkChunkText).join(''));
  });

  it('never logs the client secrets or the tokens', () => {
    const logs = app.logs();
    expect(logs).toContain('OAuth2 access token obtained');
    for (const secret of Object.values(SECRETS)) expect(logs).not.toContain(secret);
    for (const header of bearerOf(guarded)) if (header) expect(logs).not.toContain(header.slice(7));
  });
});
