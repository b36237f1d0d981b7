/**
 * Dashboard sign-in through the organisation's OpenID provider (decisions 229–231):
 * the authorization code flow with PKCE (S256), state and nonce, done by `openid-client`. The
 * ID token's role claim decides operator or viewer; the result is the same signed session
 * cookie a token login gets (session.ts), so every route, logout and expiry work as before.
 *
 * Between the redirect to the provider and its answer the flow's secrets (PKCE verifier, state,
 * nonce, where to go back to) sit in a short-lived httpOnly cookie signed with the session key,
 * scoped to the callback's path: no server-side store, so any instance can finish a sign-in.
 */
import * as oidc from 'openid-client';
import { hubBaseUrl, type OidcLoginSettings, type Settings } from '../config/settings';
import { appPart } from '../process-singleton';
import { errorMessage, log } from '../log';
import type { Role } from './roles';
import { httpOnlyCookie, issueSession, openSignedWithSessionKey, readCookie, SESSION_TTL_MS, sessionCookie, signWithSessionKey } from './session';
import { safeNextPath } from './safe-next';

export const LOGIN_START_PATH = '/api/auth/oidc/start';
export const CALLBACK_PATH = '/api/auth/oidc/callback';
const FLOW_COOKIE = 'sb_oidc_flow';
const FLOW_LABEL = 'switchboard-oidc-flow-v1';
/** A sign-in must come back from the provider within this. */
const FLOW_TTL_MS = 10 * 60 * 1000;
const DISCOVERY_TIMEOUT_S = 5;
const MAX_NAME_CHARS = 200;

interface Flow {
  verifier: string;
  state: string;
  nonce: string;
  next: string;
  exp: number;
}

/** The provider's configuration, discovered once per app; a failure is retried on the next sign-in. */
const configs = () => appPart('oidcLoginConfigs', () => new Map<string, Promise<oidc.Configuration>>());

function providerConfig(login: OidcLoginSettings): Promise<oidc.Configuration> {
  const key = `${login.issuer}\n${login.clientId}`;
  let config = configs().get(key);
  if (!config) {
    const auth = login.clientSecret ? oidc.ClientSecretBasic(login.clientSecret) : oidc.None();
    // http issuers are accepted only on loopback (settings.ts), for test providers.
    const insecure = new URL(login.issuer).protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {};
    config = oidc.discovery(new URL(login.issuer), login.clientId, undefined, auth, { timeout: DISCOVERY_TIMEOUT_S, ...insecure });
    configs().set(key, config);
    config.catch(() => configs().delete(key));
  }
  return config;
}

export const redirectUri = (settings: Settings) => `${hubBaseUrl(settings)}${CALLBACK_PATH}`;

/** SameSite=Lax suits: the provider's redirect back is a top-level GET, which Lax cookies go with. */
const flowCookie = (req: Request, value: string, maxAgeSeconds: number) => httpOnlyCookie(req, FLOW_COOKIE, value, maxAgeSeconds, CALLBACK_PATH);

const redirect = (location: string, cookies: string[] = []) => {
  const headers = new Headers({ Location: location, 'Cache-Control': 'no-store' });
  for (const cookie of cookies) headers.append('Set-Cookie', cookie);
  return new Response(null, { status: 303, headers });
};

export type SignInError = 'unreachable' | 'expired' | 'failed' | 'no_role';

/**
 * What the login page says for `?error=<code>`: fixed texts, so a crafted link cannot put words
 * of its own on the operator's login page; anything else says nothing.
 */
export function signInErrorText(code: string | undefined, login: OidcLoginSettings): string | null {
  switch (code) {
    case 'unreachable':
      return `${login.name} cannot be reached; try again or log in with a token.`;
    case 'expired':
      return 'The sign-in expired or was started in another browser; sign in again.';
    case 'failed':
      return `${login.name} sign-in failed; try again.`;
    case 'no_role':
      return `Your ${login.name} account has no Switchboard role (${login.operatorRole} or ${login.viewerRole} in its ${login.roleClaim} claim).`;
    default:
      return null;
  }
}

/** Back to the login page with an error code it explains (never the provider's raw text). */
const refuse = (req: Request, code: SignInError) => redirect(`/login?error=${code}`, [flowCookie(req, '', 0)]);

/** GET /api/auth/oidc/start?next=… — to the provider's authorization endpoint. */
export async function startSignIn(req: Request, settings: Settings): Promise<Response> {
  const login = settings.oidcLogin!;
  let config: oidc.Configuration;
  try {
    config = await providerConfig(login);
  } catch (err) {
    log.warn('OIDC sign-in: provider discovery failed', { issuer: login.issuer, error: errorMessage(err) });
    return refuse(req, 'unreachable');
  }
  const flow: Flow = { verifier: oidc.randomPKCECodeVerifier(), state: oidc.randomState(), nonce: oidc.randomNonce(), next: safeNextPath(new URL(req.url).searchParams.get('next') ?? undefined), exp: Date.now() + FLOW_TTL_MS };
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri(settings),
    scope: login.scopes,
    code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: 'S256',
    state: flow.state,
    nonce: flow.nonce,
  });
  const signed = signWithSessionKey(FLOW_LABEL, Buffer.from(JSON.stringify(flow)).toString('base64url'), settings)!;
  return redirect(url.href, [flowCookie(req, signed, FLOW_TTL_MS / 1000)]);
}

function readFlow(req: Request, settings: Settings): Flow | null {
  const value = readCookie(req.headers.get('cookie'), FLOW_COOKIE);
  const payload = value ? openSignedWithSessionKey(FLOW_LABEL, value, settings) : null;
  if (!payload) return null;
  try {
    const flow = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Flow;
    return typeof flow.exp === 'number' && flow.exp > Date.now() ? flow : null;
  } catch {
    return null;
  }
}

/** The role the claim grants: operator wins when both values are present; null: neither. */
export function roleFromClaims(claims: Record<string, unknown>, login: Pick<OidcLoginSettings, 'roleClaim' | 'operatorRole' | 'viewerRole'>): Role | null {
  const raw = claims[login.roleClaim];
  const values = typeof raw === 'string' ? raw.split(/[\s,]+/) : Array.isArray(raw) ? raw.filter((v): v is string => typeof v === 'string') : [];
  if (values.includes(login.operatorRole)) return 'operator';
  if (values.includes(login.viewerRole)) return 'viewer';
  return null;
}

/** GET /api/auth/oidc/callback?code&state — finishes the flow and sets the session cookie. */
export async function finishSignIn(req: Request, settings: Settings): Promise<Response> {
  const login = settings.oidcLogin!;
  const flow = readFlow(req, settings);
  if (!flow) return refuse(req, 'expired');
  const answer = new URL(req.url);
  // The redirect URI as registered (behind a proxy req.url is the internal one), with the provider's answer.
  const current = new URL(redirectUri(settings));
  current.search = answer.search;
  let claims: Record<string, unknown> | undefined;
  try {
    const checks = { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true };
    const tokens = await oidc.authorizationCodeGrant(await providerConfig(login), current, checks);
    claims = tokens.claims() as Record<string, unknown> | undefined;
  } catch (err) {
    log.warn('OIDC sign-in refused', { issuer: login.issuer, error: errorMessage(err) });
    return refuse(req, 'failed');
  }
  const subject = typeof claims?.sub === 'string' ? claims.sub.slice(0, MAX_NAME_CHARS) : '';
  const role = claims ? roleFromClaims(claims, login) : null;
  if (!role || !subject) {
    log.warn('OIDC sign-in without a dashboard role', { issuer: login.issuer, subject, claim: login.roleClaim });
    return refuse(req, 'no_role');
  }
  const { value } = issueSession(role, settings, Date.now(), `oidc:${subject}`);
  log.info('dashboard login', { role, via: 'oidc', subject });
  return redirect(flow.next, [sessionCookie(req, value, SESSION_TTL_MS / 1000), flowCookie(req, '', 0)]);
}

declare module '../process-singleton' {
  interface AppParts {
    /** Discovered OIDC login providers. */
    oidcLoginConfigs: Map<string, Promise<oidc.Configuration>>;
  }
}
