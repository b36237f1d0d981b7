import { describe, expect, it } from 'vitest';
import { loadSettings } from '../config/settings';
import { identifyHeaders, sameOrigin } from './guard';
import { issueSession, revokeSession, roleForToken, SESSION_COOKIE, verifySession } from './session';

const OPERATOR = 'operator-token-0123456789';
const VIEWER = 'viewer-token-0123456789ab';
const both = { operatorToken: OPERATOR, viewerToken: VIEWER };

function headers(values: Record<string, string>) {
  const h = new Headers(values);
  return { get: (name: string) => h.get(name) };
}

describe('session cookie', () => {
  it('round-trips a signed claim and never contains the token', () => {
    const { value } = issueSession('operator', both);
    expect(value).not.toContain(OPERATOR);
    expect(verifySession(value, both)?.role).toBe('operator');
  });

  it('refuses a tampered, expired or revoked session', () => {
    const { value, claim } = issueSession('viewer', both);
    const [v, payload, sig] = value.split('.');
    const forged = Buffer.from(JSON.stringify({ r: 'operator', iat: 1, exp: Date.now() + 1e6, n: 'x' })).toString('base64url');
    expect(verifySession(`${v}.${forged}.${sig}`, both)).toBeNull();
    expect(verifySession(`${v}.${payload}.${sig}x`, both)).toBeNull();
    expect(verifySession(value, both, claim.expiresAt + 1)).toBeNull();
    revokeSession(claim);
    expect(verifySession(value, both)).toBeNull();
  });

  it('is invalidated by rotating either token', () => {
    const { value } = issueSession('operator', both);
    expect(verifySession(value, { ...both, operatorToken: `${OPERATOR}-new` })).toBeNull();
    expect(verifySession(value, { ...both, viewerToken: `${VIEWER}-new` })).toBeNull();
  });

  it('never grants operator when no operator token is configured', () => {
    const viewerOnly = { viewerToken: VIEWER };
    const { value } = issueSession('operator', viewerOnly);
    expect(verifySession(value, viewerOnly)).toBeNull();
    expect(roleForToken(VIEWER, both)).toBe('viewer');
    expect(roleForToken(OPERATOR, both)).toBe('operator');
    expect(roleForToken('nope', both)).toBeNull();
  });
});

describe('identify and same-origin', () => {
  const secured = loadSettings({ NODE_ENV: 'test', SWITCHBOARD_OPERATOR_TOKEN: OPERATOR, SWITCHBOARD_VIEWER_TOKEN: VIEWER });
  const open = loadSettings({ NODE_ENV: 'test' });

  it('identifies by bearer token or session cookie, else nobody', () => {
    expect(identifyHeaders(headers({ authorization: `Bearer ${VIEWER}` }), secured)?.role).toBe('viewer');
    const { value } = issueSession('operator', secured);
    expect(identifyHeaders(headers({ cookie: `a=b; ${SESSION_COOKIE}=${value}` }), secured)?.via).toBe('session');
    expect(identifyHeaders(headers({}), secured)).toBeNull();
  });

  it('is open on loopback hosts only when no token is configured', () => {
    expect(identifyHeaders(headers({ host: '127.0.0.1:3000' }), open)?.role).toBe('operator');
    expect(identifyHeaders(headers({ host: '[::1]:3000' }), open)?.via).toBe('open');
    expect(identifyHeaders(headers({ host: 'rebound.example:3000' }), open)).toBeNull();
  });

  it('refuses cross-origin mutations and cookie mutations without any origin signal', () => {
    const post = (h: Record<string, string>) => new Request('http://127.0.0.1:3000/api/x', { method: 'POST', headers: { host: '127.0.0.1:3000', ...h } });
    expect(sameOrigin(post({ origin: 'http://127.0.0.1:3000' }), secured)).toBe(true);
    expect(sameOrigin(post({ origin: 'http://evil.example' }), secured)).toBe(false);
    expect(sameOrigin(post({ 'sec-fetch-site': 'cross-site' }), secured)).toBe(false);
    expect(sameOrigin(post({ cookie: `${SESSION_COOKIE}=x` }), secured)).toBe(false);
    expect(sameOrigin(post({}), secured)).toBe(true); // curl with a bearer token or nothing
    expect(sameOrigin(new Request('http://127.0.0.1:3000/api/x', { headers: { origin: 'http://evil.example' } }), secured)).toBe(true); // GET
  });
});
