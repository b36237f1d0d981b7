/**
 * The one peer-resolution path. Every outbound call, by peer name or by
 * direct URL, new dispatch or resumed follow, gets its auth, headers and timeout here:
 * - a name finds that peer;
 * - a URL that matches a peer's URL after normalisation (lowercase scheme and host, no default
 *   port, no trailing slash, no trailing agent-card path), or its card's endpoint, inherits that
 *   peer's auth, headers and timeout; auth and headers go only to the peer's own origin and
 *   the origins it opted in (credentialOrigins), never to another origin its card names;
 * - a stored gRPC or HTTP+JSON endpoint (`grpc://…`, `rest+http(s)://…`: what a task's peer URL
 *   holds once connected, so "dispatch again" sends it) is the peer whose card endpoint it is,
 *   read from that peer's URL; no peer has it: that interface itself, spoken to without a card;
 * - any other URL gets the global defaults and no credentials.
 * Timeout: per-dispatch override > peer timeout > SWITCHBOARD_CLIENT_TIMEOUT (timeouts.ts).
 */
import { SELF_TOKEN_HEADER, selfToken } from '../auth/self-token';
import { findPeerByNormalizedUrl, findPeerRecord, listPeerRecords, type PeerRecord } from '../db/peer-repo';
import { getSettings } from '../config/settings';
import { log } from '../log';
import { ClientError } from '../protocol/client-error';
import { isHttpUrl, normalizeAgentUrl, normalizeUrl } from '../client/normalize-url';
import { BINDING_ENDPOINT_VERSION, credentialOriginOf, isBindingEndpoint } from '../client/endpoint-binding';
import { ensurePeersReady, SELF_PEER } from './sync';
import { PROTECTED_HEADERS } from './schemas';
import { peerAuthorization, type OAuth2Source } from './oauth2';
import { TransportError } from '../client/http-transport';
import { pickTimeout, type ResolvedTimeout } from './timeouts';
import type { CardKeyPin } from '../config/file-config';
import type { ProtocolVersion } from '../client/json-rpc';

export interface TargetInput {
  peer?: string;
  url?: string;
  /** Per-dispatch override, seconds; validated (positive, at most 24 h). */
  timeoutSeconds?: number;
}

export interface ResolvedTarget {
  /** The configured peer, or null for an unknown URL. */
  peerName: string | null;
  /** Where card discovery starts: the URL given, or the peer's URL. */
  url: string;
  matchedBy: 'name' | 'url' | 'endpoint' | 'none';
  /** What goes to `url` (card discovery): the credentials when `url` may receive them. */
  headers: Record<string, string>;
  /** The peer's auth and extra headers, and the origins they may go to. Never persist these. */
  credentials: PeerCredentials | null;
  /** The peer's pinned card key: its card must verify with it (card-verify.ts); null: unchecked. */
  cardKey: CardKeyPin | null;
  timeout: ResolvedTimeout;
  /**
   * What the peer's row cached of its card when it was resolved (configured peers), so that a
   * connect allowed to reuse a recent card (a relay's turns) reads nothing more.
   */
  cachedCard: CachedCard | null;
  /**
   * The interface to speak to without reading a card: the URL given was a stored gRPC or
   * HTTP+JSON endpoint no configured peer has (a URL-dispatched task's, dispatched again). It
   * has no card URL, so whether it streams is unknown: it is followed without streaming.
   */
  endpoint: Omit<CachedCard, 'fetchedAt'> | null;
}

/** A configured peer's cached card, as far as choosing its interface goes. */
export interface CachedCard {
  fetchedAt: number;
  version: ProtocolVersion;
  endpoint: string;
  streaming: boolean;
}

function cachedCardOf(peer: PeerRecord | null): CachedCard | null {
  if (!peer?.cardFetchedAt || !peer.endpointUrl || !peer.protocolVersion) return null;
  const streaming = (peer.card?.capabilities as { streaming?: boolean } | undefined)?.streaming === true;
  return { fetchedAt: Date.parse(peer.cardFetchedAt), version: peer.protocolVersion, endpoint: peer.endpointUrl, streaming };
}

/**
 * A peer's secrets follow its configured origin only: its URL's origin,
 * plus the origins it opted in (credentialOrigins). An endpoint its card names elsewhere gets
 * none of them.
 */
export interface PeerCredentials {
  origins: string[];
  headers: Record<string, string>;
  /** An oauth2 peer: its Authorization is an access token got per call (oauth2.ts), to the same origins. */
  oauth2?: OAuth2Source;
}

/** The headers a request to `url` carries: the credentials only on an allowed origin. */
export function headersFor(target: Pick<ResolvedTarget, 'credentials'>, url: string): Record<string, string> {
  return target.credentials && mayReceiveCredentials(target.credentials, url) ? { ...target.credentials.headers } : {};
}

function mayReceiveCredentials(credentials: PeerCredentials, url: string): boolean {
  try {
    return credentials.origins.includes(credentialOriginOf(url));
  } catch {
    return false;
  }
}

function peerCredentials(peer: PeerRecord | null): PeerCredentials | null {
  if (!peer) return null;
  const origins = [new URL(peer.url).origin, ...peer.credentialOrigins];
  return { origins, headers: peerHeaders(peer), ...(peer.authType === 'oauth2' && peer.oauth2 ? { oauth2: { peerName: peer.name, origins } } : {}) };
}

/**
 * The per-call Authorization of an oauth2 peer, for a request to `url`; undefined for any other
 * peer and for a URL its credentials may not go to. The peer is read at each call: its card
 * (which may name the token URL) is cached only once the first connect has read it.
 */
export function authorizationFor(target: Pick<ResolvedTarget, 'credentials'>, url: string): ((refused?: string) => Promise<string>) | undefined {
  const source = target.credentials?.oauth2;
  if (!source || !mayReceiveCredentials(target.credentials!, url)) return undefined;
  return async (refused) => {
    const peer = await findPeerRecord(source.peerName);
    if (peer?.authType !== 'oauth2') throw new TransportError(`peer ${source.peerName}: no longer configured with oauth2`, undefined, true);
    return peerAuthorization(peer, source, refused);
  };
}

/** Auth and extra headers for a peer; extra headers cannot replace protocol headers. */
function peerHeaders(peer: PeerRecord): Record<string, string> {
  const headers = Object.fromEntries(Object.entries(peer.headers).filter(([k]) => !PROTECTED_HEADERS.includes(k.toLowerCase())));
  if (peer.authType === 'bearer' && peer.authSecret) headers.Authorization = `Bearer ${peer.authSecret}`;
  if (peer.authType === 'apiKey' && peer.authSecret) headers[peer.authHeader || 'X-API-Key'] = peer.authSecret;
  // oauth2: the Authorization is an access token got per call (authorizationFor), never a stored value.
  if (peer.name === SELF_PEER && peer.source === 'builtin') headers[SELF_TOKEN_HEADER] = selfToken();
  return headers;
}

async function peerForUrl(url: string): Promise<{ peer: PeerRecord | null; matchedBy: ResolvedTarget['matchedBy'] }> {
  const normalized = normalizeAgentUrl(url);
  const byUrl = await findPeerByNormalizedUrl(normalized);
  if (byUrl) return { peer: byUrl, matchedBy: 'url' };
  const byEndpoint = (await listPeerRecords()).find((p) => p.endpointUrl && isHttpUrl(p.endpointUrl) && normalizeUrl(p.endpointUrl) === normalized); // a grpc:// or rest+http:// endpoint is no URL to type
  return byEndpoint ? { peer: byEndpoint, matchedBy: 'endpoint' } : { peer: null, matchedBy: 'none' };
}

/** A stored gRPC or HTTP+JSON endpoint: the configured peer whose card endpoint it is, else none. */
async function peerForEndpoint(endpoint: string): Promise<PeerRecord | null> {
  return (await listPeerRecords()).find((p) => p.endpointUrl === endpoint) ?? null;
}

/** A URL given as `url`: an http(s) URL to read a card from, or a stored binding endpoint (see the file comment). */
async function resolveUrl(url: string): Promise<{ peer: PeerRecord | null; matchedBy: ResolvedTarget['matchedBy']; endpoint: ResolvedTarget['endpoint'] }> {
  if (isHttpUrl(url)) return { ...(await peerForUrl(url)), endpoint: null };
  if (!isBindingEndpoint(url)) throw new ClientError(400, 'invalid_request', `url: ${URL_EXPECTED}`, 'url');
  const peer = await peerForEndpoint(url);
  if (peer) return { peer, matchedBy: 'endpoint', endpoint: null };
  return { peer: null, matchedBy: 'none', endpoint: { version: BINDING_ENDPOINT_VERSION, endpoint: url, streaming: false } };
}

/** What `url` may be, for the refusal of anything else. */
export const URL_EXPECTED = 'expected an absolute http(s) URL, or a grpc:// or rest+http(s):// endpoint a task recorded';

export async function resolveTarget(input: TargetInput): Promise<ResolvedTarget> {
  if (Boolean(input.peer) === Boolean(input.url)) {
    throw new ClientError(400, 'invalid_request', `${input.peer ? 'url' : 'peer'}: give exactly one of peer or url`, input.peer ? 'url' : 'peer');
  }
  const defaultMs = getSettings().clientTimeoutMs;
  pickTimeout({ overrideSeconds: input.timeoutSeconds, defaultMs }); // refuses a bad override before any lookup
  await ensurePeersReady();
  let peer: PeerRecord | null;
  let matchedBy: ResolvedTarget['matchedBy'];
  let endpoint: ResolvedTarget['endpoint'] = null;
  if (input.peer) {
    peer = await findPeerRecord(input.peer);
    if (!peer) throw new ClientError(404, 'unknown_peer', `peer: no peer named "${input.peer}"`, 'peer');
    matchedBy = 'name';
  } else {
    ({ peer, matchedBy, endpoint } = await resolveUrl(input.url!));
  }
  const timeout = pickTimeout({ overrideSeconds: input.timeoutSeconds, peerTimeoutSeconds: peer?.timeoutSeconds, defaultMs });
  // A card is read from a URL: a stored binding endpoint of a peer is read from the peer's URL.
  const url = input.url && (isHttpUrl(input.url) || !peer) ? input.url : peer!.url;
  const credentials = peerCredentials(peer);
  return { peerName: peer?.name ?? null, url, matchedBy, headers: headersFor({ credentials }, url), credentials, cardKey: peer?.cardKey ?? null, timeout, cachedCard: cachedCardOf(peer), endpoint };
}

/**
 * A peer whose response window is not shorter than our timeout makes every long blocking call
 * end on our clock instead of its detach (harmless, we follow the task, but slower and noisier).
 * Returns the warning text (also logged) or null.
 */
export function checkResponseWindow(target: ResolvedTarget, peerWindowMs: number | undefined): string | null {
  const windowMs = peerWindowMs ?? (target.peerName === SELF_PEER ? getSettings().responseWindowMs : undefined);
  if (windowMs === undefined || windowMs < target.timeout.ms) return null;
  const peer = target.peerName ?? target.url;
  const text = `peer ${peer}: its response window (${windowMs / 1000} s) is not shorter than our client timeout (${target.timeout.ms / 1000} s, from ${target.timeout.source}); raise the timeout above the window`;
  log.warn('peer response window is not shorter than the client timeout', { peer, responseWindowMs: windowMs, clientTimeoutMs: target.timeout.ms, timeoutSource: target.timeout.source });
  return text;
}
