/**
 * From a resolved target to a connection: read the peer's card (fresh at every dispatch, so a
 * peer that upgraded is spoken to in its new version), pick the JSON-RPC interface and version,
 * and cache the card (on the Peer row for configured peers, in memory for direct URLs). When the
 * card cannot be fetched, the last cached one is used. A peer with a pinned card key is called
 * only when the fetched card verifies with it (card-verify.ts); only verified cards are cached.
 */
import { findPeerRecord, savePeerCard } from '../db/peer-repo';
import { appPart } from '../process-singleton';
import { log, errorMessage } from '../log';
import { chooseInterface, fetchAgentCard, type CardInfo } from '../client/agent-card';
import type { ProtocolVersion, RpcTarget } from '../client/json-rpc';
import { normalizeAgentUrl } from '../client/normalize-url';
import { authorizationFor, checkResponseWindow, headersFor, type ResolvedTarget } from './resolve';
import { verifyPinnedCard } from './card-verify';

export interface PeerConnection extends RpcTarget {
  /** The client timeout T for this dispatch (ms). */
  timeoutMs: number;
  /** The card says the peer streams (message/stream, resubscribe). */
  streaming: boolean;
  /** Peer name, or the URL for an unknown peer: for logs and reasons. */
  label: string;
}

export interface Connected {
  conn: PeerConnection;
  card: CardInfo | null;
  /** A timing warning (peer window ≥ our timeout), to record on the task. */
  warning: string | null;
}

interface CachedInterface {
  version: ProtocolVersion;
  endpoint: string;
  streaming: boolean;
}

const urlCache = () => appPart('clientCardCache', () => new Map<string, CachedInterface>());

function toConnection(target: ResolvedTarget, iface: CachedInterface): PeerConnection {
  // Credentials are chosen for the endpoint itself: the card may name another origin.
  const authorization = authorizationFor(target, iface.endpoint);
  return {
    ...iface,
    headers: headersFor(target, iface.endpoint),
    ...(authorization ? { authorization } : {}),
    timeoutMs: target.timeout.ms,
    label: target.peerName ?? target.url,
    ...(target.peerName ? { peerName: target.peerName } : {}),
  };
}

async function cachedInterface(target: ResolvedTarget, prefer?: ProtocolVersion): Promise<CachedInterface | null> {
  if (target.peerName) {
    const peer = await findPeerRecord(target.peerName);
    if (!peer?.endpointUrl || !peer.protocolVersion || (prefer && prefer !== peer.protocolVersion)) return null;
    return { version: peer.protocolVersion, endpoint: peer.endpointUrl, streaming: peer.card?.capabilities ? (peer.card.capabilities as { streaming?: boolean }).streaming === true : false };
  }
  const cached = urlCache().get(normalizeAgentUrl(target.url));
  return cached && (!prefer || prefer === cached.version) ? cached : null;
}

/**
 * A configured peer's card read at most `maxAgeMs` ago, as a connection; null when older or
 * unknown. Taken from what resolving the peer read with its row: no second read.
 */
export function recentCard(target: ResolvedTarget, maxAgeMs: number, prefer?: ProtocolVersion): Connected | null {
  const cached = target.peerName ? target.cachedCard : null;
  if (!cached || !(Date.now() - cached.fetchedAt <= maxAgeMs) || (prefer && prefer !== cached.version)) return null;
  const { version, endpoint, streaming } = cached;
  return { conn: toConnection(target, { version, endpoint, streaming }), card: null, warning: null };
}

export interface ConnectOptions {
  prefer?: ProtocolVersion;
  signal?: AbortSignal;
  /**
   * Reuse a configured peer's card read within this long instead of reading it again (a relay
   * agent's dispatches: one card read per turn would be most of the relay's added latency).
   */
  maxCardAgeMs?: number;
}

export async function connect(target: ResolvedTarget, opts: ConnectOptions = {}): Promise<Connected> {
  if (target.endpoint) return { conn: toConnection(target, target.endpoint), card: null, warning: null }; // no card URL to read
  if (opts.maxCardAgeMs !== undefined) {
    const recent = recentCard(target, opts.maxCardAgeMs, opts.prefer);
    if (recent) return recent;
  }
  let card: CardInfo;
  try {
    card = await fetchAgentCard(target.url, target.headers, target.timeout.ms, opts);
  } catch (err) {
    const cached = await cachedInterface(target, opts.prefer);
    if (!cached) throw err;
    log.warn('agent card unavailable; using the cached one', { peer: target.peerName ?? target.url, error: errorMessage(err) });
    return { conn: toConnection(target, cached), card: null, warning: null };
  }
  // Outside the fallback above: a card that fails its pinned key is refused, never replaced by the cache.
  await verifyPinnedCard(target, card.card, opts.signal);
  const chosen = chooseInterface(card, target.url, opts.prefer);
  const iface: CachedInterface = { version: chosen.version, endpoint: chosen.url, streaming: card.streaming };
  if (target.peerName) await savePeerCard(target.peerName, { card: card.card, protocolVersion: chosen.version, endpointUrl: chosen.url });
  else urlCache().set(normalizeAgentUrl(target.url), iface);
  return { conn: toConnection(target, iface), card, warning: checkResponseWindow(target, card.responseWindowMs) };
}

/** A connection rebuilt from what a task's follow state recorded (resume, cancel): no card fetch. */
export function reconnect(target: ResolvedTarget, stored: CachedInterface): PeerConnection {
  return toConnection(target, stored);
}

declare module '../process-singleton' {
  interface AppParts {
    /** Peers' interfaces, from their cards. */
    clientCardCache: Map<string, CachedInterface>;
  }
}
