/**
 * verifyBearerJwt against a real issuer on loopback (a discovery document and a JWKS served over
 * HTTP, tokens signed with jose): the owner claim, the agents claim, `scp` scopes, a rotated key
 * and a discovery document that names another issuer.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import type { OidcSettings } from '../config/settings';
import { waitFor } from '../../tests/support/a2a-clients';
import { verifyBearerJwt } from './oidc';
import { authenticateInbound } from './api-keys';
import type { Settings } from '../config/settings';

const AUDIENCE = 'switchboard';
let server: http.Server;
let issuer = '';
let liarIssuer = '';
const published: JWK[] = [];
const keys = new Map<string, CryptoKey>();

async function newKey(kid: string): Promise<CryptoKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  published.push({ ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' });
  return privateKey;
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const send = (body: unknown) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    if (req.url === '/good/.well-known/openid-configuration') return send({ issuer: `${base}/good`, jwks_uri: `${base}/jwks` });
    if (req.url === '/liar/.well-known/openid-configuration') return send({ issuer: 'https://someone-else.test', jwks_uri: `${base}/jwks` });
    if (req.url === '/jwks') return send({ keys: published });
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  issuer = `${base}/good`;
  liarIssuer = `${base}/liar`;
  // Published before the first fetch; only the rotation test adds one later.
  for (const kid of ['k1', 'k2', 'k3', 'k4', 'r1']) keys.set(kid, await newKey(kid));
});
afterAll(() => server?.close());

const settings = (over: Partial<OidcSettings> = {}): OidcSettings => ({ issuers: [issuer, liarIssuer], audience: AUDIENCE, ownerClaim: 'sub', clockSkewSeconds: 0, ...over });

async function sign(key: CryptoKey, kid: string, claims: JWTPayload, iss = issuer): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid }).setIssuer(iss).setAudience(AUDIENCE).setExpirationTime('5m').setSubject('client-1').sign(key);
}

describe('verifyBearerJwt', () => {
  it('owns tasks by the configured claim, prefixed by the issuer host and path', async () => {
    const key = keys.get('k1')!;
    const outcome = await verifyBearerJwt(await sign(key, 'k1', { email: 'ann@example.com' }), 'echo', settings({ ownerClaim: 'email' }));
    expect(outcome).toEqual({ ok: true, owner: `oidc:${new URL(issuer).host}/good:ann@example.com`, ownerName: 'ann@example.com', caller: 'oidc:ann@example.com' });
    const missing = await verifyBearerJwt(await sign(key, 'k1', {}), 'echo', settings({ ownerClaim: 'email' }));
    expect(missing).toMatchObject({ ok: false, status: 401, message: "the token's email claim must be a string of 1 to 255 characters" });
  });

  it('lets the agents claim decide which agents a caller may use (403 otherwise; * is all)', async () => {
    const key = keys.get('k2')!;
    const s = settings({ agentsClaim: 'agents' });
    expect(await verifyBearerJwt(await sign(key, 'k2', { agents: ['echo', 'slow'] }), 'slow', s)).toMatchObject({ ok: true });
    expect(await verifyBearerJwt(await sign(key, 'k2', { agents: 'echo slow' }), 'slow', s)).toMatchObject({ ok: true });
    expect(await verifyBearerJwt(await sign(key, 'k2', { agents: ['*'] }), 'ask', s)).toMatchObject({ ok: true });
    expect(await verifyBearerJwt(await sign(key, 'k2', { agents: ['echo'] }), 'slow', s)).toMatchObject({ ok: false, status: 403, error: 'insufficient_scope' });
    expect(await verifyBearerJwt(await sign(key, 'k2', {}), 'echo', s)).toMatchObject({ ok: false, status: 403 });
  });

  it('reads scopes from scp as well as scope, with {agent} in the required scope', async () => {
    const key = keys.get('k3')!;
    const s = settings({ requiredScope: 'a2a:{agent}' });
    expect(await verifyBearerJwt(await sign(key, 'k3', { scp: ['a2a:echo'] }), 'echo', s)).toMatchObject({ ok: true });
    expect(await verifyBearerJwt(await sign(key, 'k3', { scope: 'openid a2a:echo' }), 'echo', s)).toMatchObject({ ok: true });
    expect(await verifyBearerJwt(await sign(key, 'k3', { scope: 'a2a:echo' }), 'slow', s)).toMatchObject({ ok: false, status: 403, scope: 'a2a:slow' });
  });

  it('accepts a key published after the key set was first fetched (rotation)', async () => {
    expect(await verifyBearerJwt(await sign(keys.get('r1')!, 'r1', {}), 'echo', settings())).toMatchObject({ ok: true });
    const rotated = await sign(await newKey('r2'), 'r2', {});
    // An unknown kid refetches the JWKS at most once per cooldown (JWKS_COOLDOWN_MS).
    const outcome = await waitFor(async () => {
      const o = await verifyBearerJwt(rotated, 'echo', settings());
      return o.ok ? o : null;
    }, 20_000, 500);
    expect(outcome).toMatchObject({ ok: true });
  });

  it('refuses an issuer whose discovery document names another issuer (503: it cannot be verified)', async () => {
    const key = keys.get('k4')!;
    const outcome = await verifyBearerJwt(await sign(key, 'k4', {}, liarIssuer), 'echo', settings());
    expect(outcome).toMatchObject({ ok: false, status: 503 });
  });

  it('refuses unsigned and HMAC tokens without fetching anything for them', async () => {
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ iss: issuer, aud: AUDIENCE, sub: 'x', exp: 9e9 })).toString('base64url')}.`;
    expect(await verifyBearerJwt(none, 'echo', settings())).toMatchObject({ ok: false, status: 401 });
    const hmac = await new SignJWT({ sub: 'x' }).setProtectedHeader({ alg: 'HS256' }).setIssuer(issuer).setAudience(AUDIENCE).setExpirationTime('5m').sign(new TextEncoder().encode('k'.repeat(32)));
    expect(await verifyBearerJwt(hmac, 'echo', settings())).toMatchObject({ ok: false, status: 401 });
  });
});

describe('authenticateInbound with OIDC issuers', () => {
  const hub = (oidc: OidcSettings) => ({ oidc }) as Settings;
  const call = (token: string) => new Request('http://127.0.0.1/a2a/slow', { headers: { Authorization: `Bearer ${token}` } });

  it('answers an unreadable issuer with 503 and Retry-After, a missing scope with 403 naming it', async () => {
    const unreachable = await authenticateInbound(call(await sign(keys.get('k4')!, 'k4', {}, liarIssuer)), 'slow', hub(settings()));
    expect(unreachable).toMatchObject({ ok: false, status: 503 });
    if (unreachable.ok) return;
    expect(unreachable.response.status).toBe(503);
    expect(unreachable.response.headers.get('retry-after')).toBe('5');
    expect(unreachable.response.headers.get('www-authenticate')).toContain('error="temporarily_unavailable"');

    const denied = await authenticateInbound(call(await sign(keys.get('k3')!, 'k3', { scope: 'a2a:echo' })), 'slow', hub(settings({ requiredScope: 'a2a:{agent}' })));
    expect(denied).toMatchObject({ ok: false, status: 403 });
    if (denied.ok) return;
    expect(denied.response.headers.get('www-authenticate')).toBe('Bearer realm="switchboard", error="insufficient_scope", error_description="the token lacks scope a2a:slow", scope="a2a:slow"');
  });

  it('keeps caller-chosen claim names printable ASCII without quotes in the challenge', async () => {
    const odd = await authenticateInbound(call(await sign(keys.get('k1')!, 'k1', {})), 'slow', hub(settings({ ownerClaim: 'naïve"x' })));
    expect(odd).toMatchObject({ ok: false, status: 401 });
    if (odd.ok) return;
    expect(odd.response.headers.get('www-authenticate')).toContain('error_description="the token\'s na?ve\'x claim must be');
  });
});
