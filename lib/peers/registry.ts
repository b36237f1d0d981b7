/**
 * Peers: the A2A agents we dispatch to. CRUD for the API (secrets stay server-side; callers get
 * PublicPeer). Peers declared in the config file and the built-in `self` are managed by
 * sync.ts and are read-only here.
 */
import {
  deletePeerRecord,
  findPeerByNormalizedUrl,
  findPeerRecord,
  insertPeerRecord,
  listPeerRecords,
  updatePeerRecord,
  type PeerAuthFields,
  type PeerInput,
  type PeerRecord,
} from '../db/peer-repo';
import { audited, type AuditActor } from '../audit/audit-log';
import { ClientError } from '../protocol/client-error';
import { normalizeAgentUrl } from '../client/normalize-url';
import { ensurePeersReady } from './sync';
import { peerInputOf } from './peer-input';
import type { PeerAuthInput } from '../protocol/peer-auth';
import { toPublicPeer, type PeerAuthPatch, type PeerCreateInput, type PeerPatchInput, type PublicPeer } from './schemas';

export function authFields(auth: PeerAuthInput): PeerAuthFields {
  switch (auth.type) {
    case 'none':
      return { authType: 'none', authSecret: null, authHeader: null, oauth2: null };
    case 'bearer':
      return { authType: 'bearer', authSecret: auth.token, authHeader: null, oauth2: null };
    case 'apiKey':
      return { authType: 'apiKey', authSecret: auth.key, authHeader: auth.header, oauth2: null };
  }
}

/**
 * A patch without a secret keeps the stored one, if the auth type stays the same and the peer
 * stays on its origin; a peer moved to another origin loses it (the secret was given for the
 * old origin), unless the patch gives a new one.
 */
function patchedAuth(peer: PeerRecord, auth: PeerAuthPatch, originMoved: boolean): PeerAuthFields {
  if (auth.type === 'none') return authFields(auth);
  const given = auth.type === 'bearer' ? auth.token : auth.key;
  if (!given && originMoved) return { authType: auth.type, authSecret: null, authHeader: auth.type === 'apiKey' ? auth.header : null, oauth2: null };
  const secret = given || (peer.authType === auth.type ? peer.authSecret : null);
  if (!secret) throw new ClientError(400, 'invalid_request', `auth.${auth.type === 'bearer' ? 'token' : 'key'}: expected the secret (none is stored yet)`, 'auth');
  return auth.type === 'bearer' ? authFields({ type: 'bearer', token: secret }) : authFields({ type: 'apiKey', header: auth.header, key: secret });
}

async function requirePeer(name: string): Promise<PeerRecord> {
  await ensurePeersReady();
  const peer = await findPeerRecord(name);
  if (!peer) throw new ClientError(404, 'unknown_peer', `no peer named "${name}"`, 'peer');
  return peer;
}

async function assertUrlFree(normalizedUrl: string, except?: string): Promise<void> {
  const owner = await findPeerByNormalizedUrl(normalizedUrl);
  if (owner && owner.name !== except) {
    throw new ClientError(409, 'duplicate_url', `url: peer "${owner.name}" already has this URL (${normalizedUrl})`, 'url');
  }
}

function assertEditable(peer: PeerRecord): void {
  if (peer.source === 'config') throw new ClientError(409, 'read_only', `peer "${peer.name}" is declared in the config file (SWITCHBOARD_CONFIG); edit it there`);
  if (peer.source === 'builtin') throw new ClientError(409, 'read_only', `peer "${peer.name}" is built in (this Switchboard's own agents)`);
}

export async function listPeers(): Promise<PublicPeer[]> {
  await ensurePeersReady();
  return (await listPeerRecords()).map(toPublicPeer);
}

export async function getPeer(name: string): Promise<PublicPeer> {
  return toPublicPeer(await requirePeer(name));
}

export async function createPeer(input: PeerCreateInput, actor?: AuditActor): Promise<PublicPeer> {
  return audited(actor, 'peer.create', { target: input.name }, () => insertPeer(input));
}

async function insertPeer(input: PeerCreateInput): Promise<PublicPeer> {
  await ensurePeersReady();
  if (await findPeerRecord(input.name)) throw new ClientError(409, 'duplicate_name', `name: a peer named "${input.name}" exists`, 'name');
  const normalizedUrl = normalizeAgentUrl(input.url);
  await assertUrlFree(normalizedUrl);
  const record = await insertPeerRecord(peerInputOf(input, authFields(input.auth), 'api'));
  return toPublicPeer(record);
}

export async function updatePeer(name: string, patch: PeerPatchInput, actor?: AuditActor): Promise<PublicPeer> {
  // The names of the fields changed, never their values (a secret, a header).
  const detail = { fields: Object.keys(patch).sort().join(',') };
  return audited(actor, 'peer.update', { target: name, detail }, () => changePeer(name, patch));
}

async function changePeer(name: string, patch: PeerPatchInput): Promise<PublicPeer> {
  const peer = await requirePeer(name);
  assertEditable(peer);
  if (patch.name !== undefined && patch.name !== name) throw new ClientError(400, 'invalid_request', 'name: peers are not renamed; create a new peer and delete this one', 'name');
  const changes: Partial<PeerInput> = {};
  const originMoved = patch.url !== undefined && new URL(patch.url).origin !== new URL(peer.url).origin;
  if (patch.url !== undefined) {
    changes.url = patch.url;
    changes.normalizedUrl = normalizeAgentUrl(patch.url);
    await assertUrlFree(changes.normalizedUrl, name);
  }
  if (originMoved) Object.assign(changes, { authSecret: null, headers: {} });
  if (patch.auth !== undefined) Object.assign(changes, patchedAuth(peer, patch.auth, originMoved));
  if (patch.headers !== undefined) changes.headers = patch.headers;
  if (patch.credentialOrigins !== undefined) changes.credentialOrigins = patch.credentialOrigins;
  if (patch.cardKey !== undefined) changes.cardKey = patch.cardKey;
  if (patch.timeoutSeconds !== undefined) changes.timeoutSeconds = patch.timeoutSeconds;
  if (patch.notes !== undefined) changes.notes = patch.notes;
  const updated = await updatePeerRecord(name, changes);
  if (!updated) throw new ClientError(404, 'unknown_peer', `no peer named "${name}"`, 'peer');
  return toPublicPeer(updated);
}

export async function deletePeer(name: string, actor?: AuditActor): Promise<void> {
  await audited(actor, 'peer.delete', { target: name }, async () => {
    assertEditable(await requirePeer(name));
    await deletePeerRecord(name);
  });
}
