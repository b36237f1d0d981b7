/**
 * Peers that do not come from the API: those declared in SWITCHBOARD_CONFIG (source 'config',
 * re-synced at start-up: added, updated, and removed when gone from the file) and the built-in
 * `self` (source 'builtin': this Switchboard's own agents over HTTP, at its own URL).
 */
import {
  deletePeersOfSourceExcept,
  findPeerByNormalizedUrl,
  findPeerRecord,
  insertPeerRecord,
  updatePeerRecord,
  type PeerAuthFields,
  type PeerInput,
} from '../db/peer-repo';
import { fileConfig, isPeerConfigError, type PeerConfig } from '../config/file-config';
import { hubBaseUrl, getSettings } from '../config/settings';
import { appPart } from '../process-singleton';
import { log, errorMessage } from '../log';
import { normalizeAgentUrl } from '../client/normalize-url';
import { timeoutFloorWarning } from '../protocol/timeout-floor';
import { peerInputOf } from './peer-input';

export const SELF_PEER = 'self';

/** This server's own base URL: SWITCHBOARD_PUBLIC_URL, else http://HOST:PORT. */
export function selfBaseUrl(): string {
  return hubBaseUrl(getSettings());
}

function configAuth(peer: PeerConfig): PeerAuthFields {
  const auth = peer.auth;
  if (auth.type === 'none') return { authType: 'none', authSecret: null, authHeader: null, oauth2: null };
  if (auth.type === 'oauth2') {
    const { type: _type, clientSecret, clientSecretEnv, ...client } = auth;
    const secret = clientSecret ?? (clientSecretEnv ? process.env[clientSecretEnv] : undefined) ?? null;
    if (!secret) log.warn('peer client secret missing; token requests will be refused', { peer: peer.name, authType: auth.type, env: clientSecretEnv });
    return { authType: 'oauth2', authSecret: secret, authHeader: null, oauth2: client };
  }
  const fromEnv = auth.type === 'bearer' ? auth.tokenEnv : auth.keyEnv;
  const secret = (auth.type === 'bearer' ? auth.token : auth.key) ?? (fromEnv ? process.env[fromEnv] : undefined) ?? null;
  if (!secret) log.warn('peer secret missing; calls will go without credentials', { peer: peer.name, authType: auth.type, env: fromEnv });
  return { authType: auth.type, authSecret: secret, authHeader: auth.type === 'apiKey' ? auth.header : null, oauth2: null };
}

/** Upserts one non-API peer; a name or URL held by another peer is reported and skipped. */
async function upsertManagedPeer(input: PeerInput): Promise<boolean> {
  const urlOwner = await findPeerByNormalizedUrl(input.normalizedUrl);
  if (urlOwner && urlOwner.name !== input.name) {
    log.error('peer not synced: its URL belongs to another peer', { peer: input.name, url: input.normalizedUrl, owner: urlOwner.name });
    return false;
  }
  const existing = await findPeerRecord(input.name);
  if (!existing) {
    await insertPeerRecord(input);
    return true;
  }
  if (existing.source === 'api') log.warn('peer declared in the config file replaces the one created over the API', { peer: input.name });
  if (existing.source === 'builtin' && input.source !== 'builtin') {
    log.error('peer not synced: the name is reserved for the built-in peer', { peer: input.name });
    return false;
  }
  // Only a changed URL or card key pin is passed on, so the cached card survives unchanged ones.
  const { normalizedUrl, cardKey, ...rest } = input;
  const urlChanged = existing.normalizedUrl !== normalizedUrl;
  const pinChanged = JSON.stringify(existing.cardKey) !== JSON.stringify(cardKey);
  await updatePeerRecord(input.name, { ...rest, ...(urlChanged ? { normalizedUrl } : {}), ...(pinChanged ? { cardKey } : {}) });
  return true;
}

export async function syncConfiguredPeers(): Promise<number> {
  const config = fileConfig();
  for (const error of config.errors.filter(isPeerConfigError)) log.error('config error; peer not synced', { error });
  // Stale entries go first, so a peer renamed in the file can take over its old URL.
  const removed = await deletePeersOfSourceExcept('config', config.peers.map((p) => p.name));
  const synced: string[] = [];
  for (const peer of config.peers) {
    if (peer.name === SELF_PEER) {
      log.error('peer not synced: the name is reserved for the built-in peer', { peer: peer.name });
      continue;
    }
    const ok = await upsertManagedPeer(peerInputOf(peer, configAuth(peer), 'config'));
    if (ok) synced.push(peer.name);
    // Warned, never refused: the peer form, the API and the CLI say the same.
    const floor = timeoutFloorWarning(peer.timeoutSeconds, "the peer's timeout");
    if (floor) log.warn('config peer timeout below the floor', { peer: peer.name, warning: floor });
  }
  if (synced.length || removed) log.info('config peers synced', { synced: synced.length, removed });
  return synced.length;
}

export async function ensureSelfPeer(): Promise<void> {
  const url = selfBaseUrl();
  await upsertManagedPeer({
    name: SELF_PEER,
    url,
    normalizedUrl: normalizeAgentUrl(url),
    authType: 'none',
    authSecret: null,
    authHeader: null,
    oauth2: null,
    headers: {},
    credentialOrigins: [],
    cardKey: null,
    timeoutSeconds: null,
    notes: "This Switchboard's own agents, over HTTP (built in).",
    source: 'builtin',
  });
}

async function syncAll(): Promise<void> {
  await ensureSelfPeer();
  await syncConfiguredPeers();
}

/**
 * Runs the sync once per app (at start-up, or lazily on first use if boot did not). A failure
 * is logged and retried on the next call rather than cached.
 */
export function ensurePeersReady(): Promise<void> {
  const holder = appPart('peersReady', () => ({}));
  holder.ready ??= syncAll().catch((err) => {
    holder.ready = undefined;
    log.error('peer sync failed', { error: errorMessage(err) });
  });
  return holder.ready;
}

declare module '../process-singleton' {
  interface AppParts {
    /** The peer sync, once. */
    peersReady: { ready?: Promise<void> };
  }
}
