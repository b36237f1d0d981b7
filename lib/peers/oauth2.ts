/**
 * OAuth2 client credentials for outbound calls (decisions 224–227). A peer with
 * `auth: {type: 'oauth2', …}` is called with `Authorization: Bearer <access token>`, the token
 * got from the token endpoint with the peer's client id and secret (RFC 6749 §4.4), kept per
 * process until shortly before it expires, and fetched again once when the peer answers 401.
 *
 * Where the secret goes: only to the token URL, which is the configured `tokenUrl`, else the one
 * the peer's card declares (an `oauth2` scheme's clientCredentials flow) when it is on the
 * peer's own origin or one it opted in (credentialOrigins). A card can be altered by whoever
 * serves it, so a token URL it names elsewhere is refused, never called. Where the token goes:
 * the same origins as any other peer credential (resolve.ts, connect.ts).
 */
import { createHash } from 'node:crypto';
import type { PeerRecord } from '../db/peer-repo';
import { bodyError, httpRequest, TransportError } from '../client/http-transport';
import { appPart } from '../process-singleton';
import { linkedSignal } from '../util/abortable';
import { log } from '../log';

/** A token endpoint that has not answered within this is given up (the call fails, not hangs). */
const TOKEN_TIMEOUT_MS = 15_000;
const MAX_TOKEN_RESPONSE_CHARS = 64 * 1024;
const MAX_ACCESS_TOKEN_CHARS = 16 * 1024;
/** A token is used until this long before its expiry, so it does not expire on the way. */
const EXPIRY_SKEW_MS = 30_000;
/** A token response without `expires_in` (it is only RECOMMENDED) is kept this long; a 401 still renews it. */
const DEFAULT_LIFETIME_MS = 300_000;

/** What a call needs to get a token for one peer. */
export interface OAuth2Source {
  peerName: string;
  /** Origins the token endpoint may be on when the card names it: the peer's and its opted-in ones. */
  origins: string[];
}

interface CachedToken {
  authorization: string;
  usableUntil: number;
}

interface TokenCache {
  tokens: Map<string, CachedToken>;
  /** One token request at a time per client: concurrent calls wait for the same answer. */
  inflight: Map<string, Promise<CachedToken>>;
}

const cache = () => appPart('oauth2Tokens', () => ({ tokens: new Map(), inflight: new Map() }));

const fail = (message: string) => new TransportError(message, undefined, true);

type Json = Record<string, unknown>;
const asJson = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);

/** The clientCredentials token URL an `oauth2` scheme of the card declares: v1.0 (`oauth2SecurityScheme`) or v0.3 (`type: "oauth2"`). */
export function declaredTokenUrl(card: Record<string, unknown> | null): string | null {
  const schemes = asJson(card?.securitySchemes);
  for (const scheme of Object.values(schemes ?? {})) {
    const entry = asJson(scheme);
    const oauth2 = asJson(entry?.oauth2SecurityScheme) ?? (entry?.type === 'oauth2' ? entry : null);
    const tokenUrl = asJson(asJson(oauth2?.flows)?.clientCredentials)?.tokenUrl;
    if (typeof tokenUrl === 'string' && tokenUrl) return tokenUrl;
  }
  return null;
}

/** The one URL the client secret may go to, or a refusal naming what to configure. */
export function tokenUrlFor(peer: PeerRecord, origins: string[]): string {
  if (peer.oauth2?.tokenUrl) return peer.oauth2.tokenUrl;
  const declared = declaredTokenUrl(peer.card);
  if (!declared) throw fail(`peer ${peer.name}: auth oauth2 has no token URL: the peer's card declares no OAuth2 clientCredentials flow; set auth.tokenUrl`);
  let origin: string;
  try {
    origin = new URL(declared).origin;
  } catch {
    throw fail(`peer ${peer.name}: the card's OAuth2 token URL is not a URL; set auth.tokenUrl`);
  }
  if (!origins.includes(origin)) {
    throw fail(`peer ${peer.name}: the card's OAuth2 token URL ${declared} is on another origin than the peer's (${origins[0]}); the client secret is not sent there. Set auth.tokenUrl to trust it`);
  }
  return declared;
}

/** RFC 6749 §2.3.1: Basic credentials are the form-encoded id and secret. */
const formEncode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');

function tokenRequest(peer: PeerRecord, secret: string): { headers: Record<string, string>; body: string } {
  const client = peer.oauth2!;
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (client.scopes?.length) form.set('scope', client.scopes.join(' '));
  if (client.audience) form.set('audience', client.audience);
  if (client.resource) form.set('resource', client.resource);
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' };
  if (client.authMethod === 'client_secret_post') {
    form.set('client_id', client.clientId);
    form.set('client_secret', secret);
  } else {
    headers.Authorization = `Basic ${Buffer.from(`${formEncode(client.clientId)}:${formEncode(secret)}`).toString('base64')}`;
  }
  return { headers, body: form.toString() };
}

/** A token endpoint's error (RFC 6749 §5.2), printable and bounded: it ends up in a task's reason. */
function refusalOf(status: number, body: Json | null): string {
  const clean = (v: unknown) => (typeof v === 'string' ? v.replace(/[^\x20-\x7E]/g, '?').slice(0, 200) : '');
  const error = clean(body?.error);
  const description = clean(body?.error_description);
  return `HTTP ${status}${error ? ` ${error}` : ''}${description ? ` (${description})` : ''}`;
}

function parseTokenResponse(label: string, status: number, text: string): CachedToken {
  let body: Json | null = null;
  try {
    body = asJson(JSON.parse(text));
  } catch {
    // reported below
  }
  if (status !== 200) throw fail(`${label} refused the client credentials: ${refusalOf(status, body)}`);
  const token = body?.access_token;
  if (typeof token !== 'string' || !/^[\x21-\x7E]{1,16384}$/.test(token) || token.length > MAX_ACCESS_TOKEN_CHARS) {
    throw fail(`${label} answered without a usable access_token`);
  }
  if (typeof body?.token_type !== 'string' || body.token_type.toLowerCase() !== 'bearer') {
    throw fail(`${label} answered token_type ${JSON.stringify(body?.token_type)}; only Bearer tokens are supported`);
  }
  const lifetimeMs = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in * 1000 : DEFAULT_LIFETIME_MS;
  // A short-lived token is kept for half its life rather than not at all.
  const keepMs = lifetimeMs > 2 * EXPIRY_SKEW_MS ? lifetimeMs - EXPIRY_SKEW_MS : lifetimeMs / 2;
  return { authorization: `Bearer ${token}`, usableUntil: Date.now() + keepMs };
}

async function requestToken(peer: PeerRecord, tokenUrl: string): Promise<CachedToken> {
  const label = `peer ${peer.name}: the token endpoint ${tokenUrl}`;
  if (!peer.authSecret) throw fail(`peer ${peer.name}: auth oauth2 has no client secret (clientSecret or clientSecretEnv)`);
  const { headers, body } = tokenRequest(peer, peer.authSecret);
  const timer = linkedSignal([], { ms: TOKEN_TIMEOUT_MS, reason: () => fail(`${label} did not answer within ${TOKEN_TIMEOUT_MS / 1000} s`) });
  try {
    const res = await httpRequest({ url: tokenUrl, method: 'POST', headers, body, signal: timer.signal }).catch((err: unknown) => {
      throw err instanceof TransportError && err !== timer.signal.reason ? fail(`${label} cannot be reached: ${err.message}`) : err;
    });
    const text = await res.text().catch((err) => Promise.reject(bodyError(err, timer.signal)));
    if (text.length > MAX_TOKEN_RESPONSE_CHARS) throw fail(`${label} answered more than ${MAX_TOKEN_RESPONSE_CHARS} bytes`);
    const token = parseTokenResponse(label, res.status, text);
    log.info('OAuth2 access token obtained', { peer: peer.name, tokenUrl, usableForSeconds: Math.round((token.usableUntil - Date.now()) / 1000) });
    return token;
  } finally {
    timer.dispose();
  }
}

/** The cache key: a change of any setting (a rotated secret too) means another token. */
function clientKey(peer: PeerRecord, tokenUrl: string): string {
  return createHash('sha256').update(JSON.stringify([peer.name, tokenUrl, peer.oauth2, peer.authSecret])).digest('base64url');
}

/**
 * `Authorization` for a call to the peer: the cached token while it is usable, else a new one.
 * `refused` (the value the peer just answered 401 to) drops that token, so a second 401 for the
 * same token does not fetch twice.
 */
export async function peerAuthorization(peer: PeerRecord, source: OAuth2Source, refused?: string): Promise<string> {
  const tokenUrl = tokenUrlFor(peer, source.origins);
  const key = clientKey(peer, tokenUrl);
  const { tokens, inflight } = cache();
  const cached = tokens.get(key);
  if (cached && refused === cached.authorization) tokens.delete(key);
  else if (cached && cached.usableUntil > Date.now()) return cached.authorization;
  let pending = inflight.get(key);
  if (!pending) {
    pending = requestToken(peer, tokenUrl).then((token) => {
      tokens.set(key, token);
      return token;
    });
    inflight.set(key, pending);
    void pending.catch(() => undefined).finally(() => inflight.delete(key));
  }
  return (await pending).authorization;
}

declare module '../process-singleton' {
  interface AppParts {
    /** Peers' OAuth2 tokens. */
    oauth2Tokens: TokenCache;
  }
}
