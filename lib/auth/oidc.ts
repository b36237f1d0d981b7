/**
 * Inbound OIDC/OAuth2 bearer JWTs (decisions 202–205). A token is accepted when a
 * configured issuer signed it (its key found through the issuer's discovery document and JWKS,
 * both cached; jose refetches the JWKS when a token names an unknown `kid`, so rotation needs
 * no restart), it is for our audience, and it has not expired (within the clock skew).
 *
 * The caller's owner is `oidc:<issuer host and path>:<owner claim>`: two subjects of one issuer,
 * the same subject at two issuers, and any API key (owned by its UUID) never share tasks.
 */
import { createRemoteJWKSet, decodeJwt, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { OidcSettings } from '../config/settings';
import { errorMessage, log } from '../log';
import { appPart } from '../process-singleton';

/** Signature algorithms we accept: asymmetric only (a JWKS holds public keys). */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
const DISCOVERY_TIMEOUT_MS = 5_000;
const MAX_DISCOVERY_BYTES = 256 * 1024;
/**
 * A token naming a `kid` the cached JWKS lacks refetches it, at most once per this per issuer:
 * a rotated key is accepted within seconds, and unknown kids cannot make us hammer the issuer.
 */
const JWKS_COOLDOWN_MS = 5_000;
const MAX_TOKEN_CHARS = 16_384;
const MAX_OWNER_CHARS = 255;

export type OidcOutcome =
  | { ok: true; owner: string; ownerName: string; caller: string }
  | { ok: false; status: 401 | 403 | 503; error: 'invalid_token' | 'insufficient_scope' | 'temporarily_unavailable'; message: string; scope?: string };

/** Bearer credentials that are JWTs (three base64url parts); API keys (`sb_…`) never are. */
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
}

/** The issuer without its scheme or trailing slash: a stable, readable owner prefix. */
export function issuerLabel(issuer: string): string {
  const url = new URL(issuer);
  return `${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}

/** One key set per issuer, found once through discovery; a failed discovery is retried on the next call. */
const keySets = () => appPart('oidcKeySets', () => new Map<string, Promise<JWTVerifyGetKey>>());

async function discoverKeySet(issuer: string): Promise<JWTVerifyGetKey> {
  const res = await fetch(discoveryUrl(issuer), { signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS), redirect: 'error' });
  if (!res.ok) throw new Error(`discovery answered HTTP ${res.status}`);
  const text = await res.text();
  if (text.length > MAX_DISCOVERY_BYTES) throw new Error('discovery document too large');
  const doc = JSON.parse(text) as { issuer?: unknown; jwks_uri?: unknown };
  // OpenID Connect Discovery §4.3: the document must name the issuer it was fetched for.
  if (doc.issuer !== issuer) throw new Error(`discovery names issuer ${JSON.stringify(doc.issuer)}`);
  if (typeof doc.jwks_uri !== 'string') throw new Error('discovery has no jwks_uri');
  const jwksUrl = new URL(doc.jwks_uri);
  if (jwksUrl.protocol !== 'https:' && new URL(issuer).protocol !== 'http:') throw new Error('jwks_uri is not https');
  return createRemoteJWKSet(jwksUrl, { timeoutDuration: DISCOVERY_TIMEOUT_MS, cooldownDuration: JWKS_COOLDOWN_MS });
}

function keySetFor(issuer: string): Promise<JWTVerifyGetKey> {
  const sets = keySets();
  let set = sets.get(issuer);
  if (!set) {
    set = discoverKeySet(issuer);
    sets.set(issuer, set);
    set.catch(() => sets.delete(issuer));
  }
  return set;
}

const invalid = (message: string): OidcOutcome => ({ ok: false, status: 401, error: 'invalid_token', message });

/** The token's scopes: `scope` (space-separated, RFC 9068) or `scp` (a list or a string). */
function scopesOf(payload: JWTPayload): string[] {
  const raw = payload.scope ?? payload.scp;
  if (typeof raw === 'string') return raw.split(' ').filter(Boolean);
  return Array.isArray(raw) ? raw.filter((s): s is string => typeof s === 'string') : [];
}

function agentsOf(payload: JWTPayload, claim: string): string[] {
  const raw = payload[claim];
  if (typeof raw === 'string') return raw.split(/[\s,]+/).filter(Boolean);
  return Array.isArray(raw) ? raw.filter((s): s is string => typeof s === 'string') : [];
}

/** Null when the caller may use `agentSlug`; else the 403. */
function checkAgentAccess(payload: JWTPayload, agentSlug: string, settings: OidcSettings): OidcOutcome | null {
  if (settings.requiredScope) {
    const scope = settings.requiredScope.replaceAll('{agent}', agentSlug);
    if (!scopesOf(payload).includes(scope)) return { ok: false, status: 403, error: 'insufficient_scope', message: `the token lacks scope ${scope}`, scope };
  }
  if (settings.agentsClaim) {
    const agents = agentsOf(payload, settings.agentsClaim);
    if (!agents.includes('*') && !agents.includes(agentSlug)) {
      return { ok: false, status: 403, error: 'insufficient_scope', message: `the token's ${settings.agentsClaim} claim does not list agent ${agentSlug}` };
    }
  }
  return null;
}

function verifyFailure(err: unknown): OidcOutcome {
  if (err instanceof errors.JWTExpired) return invalid('the token has expired');
  if (err instanceof errors.JWTClaimValidationFailed) return invalid(`the token's ${err.claim} claim is not accepted (${err.reason})`);
  if (err instanceof errors.JWSSignatureVerificationFailed) return invalid('the token signature does not verify');
  if (err instanceof errors.JWKSNoMatchingKey) return invalid('no key of the issuer matches the token');
  if (err instanceof errors.JOSEAlgNotAllowed) return invalid('the token is signed with an algorithm that is not accepted');
  if (err instanceof errors.JOSEError) return invalid(`the token is not valid (${err.code})`);
  throw err;
}

/** Verifies a bearer JWT for a call to `agentSlug`. */
export async function verifyBearerJwt(token: string, agentSlug: string, settings: OidcSettings): Promise<OidcOutcome> {
  if (token.length > MAX_TOKEN_CHARS) return invalid(`the token is longer than ${MAX_TOKEN_CHARS} characters`);
  let issuer: unknown;
  try {
    issuer = decodeJwt(token).iss;
  } catch {
    return invalid('the bearer token is not a JWT');
  }
  if (typeof issuer !== 'string' || !settings.issuers.includes(issuer)) return invalid('the token issuer is not accepted');
  let keySet: JWTVerifyGetKey;
  try {
    keySet = await keySetFor(issuer);
  } catch (err) {
    log.warn('OIDC discovery failed', { issuer, error: errorMessage(err) });
    return { ok: false, status: 503, error: 'temporarily_unavailable', message: 'the token issuer cannot be reached; try again' };
  }
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keySet, {
      issuer,
      audience: settings.audience,
      clockTolerance: settings.clockSkewSeconds,
      algorithms: ALGORITHMS,
      requiredClaims: ['exp'],
    }));
  } catch (err) {
    if (err instanceof errors.JWKSTimeout) return { ok: false, status: 503, error: 'temporarily_unavailable', message: 'the token issuer cannot be reached; try again' };
    return verifyFailure(err);
  }
  const subject = payload[settings.ownerClaim];
  if (typeof subject !== 'string' || subject === '' || subject.length > MAX_OWNER_CHARS) {
    return invalid(`the token's ${settings.ownerClaim} claim must be a string of 1 to ${MAX_OWNER_CHARS} characters`);
  }
  const denied = checkAgentAccess(payload, agentSlug, settings);
  if (denied) return denied;
  return { ok: true, owner: `oidc:${issuerLabel(issuer)}:${subject}`, ownerName: subject, caller: `oidc:${subject}` };
}

declare module '../process-singleton' {
  interface AppParts {
    /** Issuers' key sets. */
    oidcKeySets: Map<string, Promise<JWTVerifyGetKey>>;
  }
}
