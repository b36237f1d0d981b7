/**
 * The stored fields of a peer declared by the API (registry.ts) or the config file (sync.ts):
 * the same columns from the same settings, whichever door they came through.
 */
import type { PeerAuthFields, PeerInput } from '../db/peer-repo';
import { normalizeAgentUrl } from '../client/normalize-url';

/** A peer's settings as the API's and the config file's schemas give them. */
interface DeclaredPeer {
  name: string;
  url: string;
  headers: PeerInput['headers'];
  credentialOrigins: PeerInput['credentialOrigins'];
  cardKey?: PeerInput['cardKey'];
  timeoutSeconds?: number | null;
  notes?: string | null;
}

/** An absent optional setting is stored as null; auth comes sealed or resolved by the caller. */
export function peerInputOf(peer: DeclaredPeer, auth: PeerAuthFields, source: PeerInput['source']): PeerInput {
  return {
    name: peer.name,
    url: peer.url,
    normalizedUrl: normalizeAgentUrl(peer.url),
    ...auth,
    headers: peer.headers,
    credentialOrigins: peer.credentialOrigins,
    cardKey: peer.cardKey ?? null,
    timeoutSeconds: peer.timeoutSeconds ?? null,
    notes: peer.notes ?? null,
    source,
  };
}
