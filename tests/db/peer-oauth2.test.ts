/**
 * An oauth2 peer (decision 224) on either store: its client settings round-trip, its client
 * secret is stored sealed (never in the settings column), and the public view shows the client
 * id and token URL but never the secret.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from '../support/in-process';

type PeerRepo = typeof import('../../lib/db/peer-repo');
let peers: PeerRepo;

beforeAll(async () => {
  await freshStore();
  peers = await import('../../lib/db/peer-repo');
});

describe('oauth2 peers in the store', () => {
  it('keeps the client settings, seals the secret and shows no secret', async () => {
    const oauth2 = { clientId: 'hub', tokenUrl: 'https://idp.example/token', scopes: ['a2a'], authMethod: 'client_secret_basic' as const };
    await peers.insertPeerRecord({
      name: 'idp-guarded',
      url: 'https://agent.example',
      normalizedUrl: 'https://agent.example',
      authType: 'oauth2',
      authSecret: 'client-secret-value',
      authHeader: null,
      oauth2,
      headers: {},
      credentialOrigins: [],
      cardKey: null,
      timeoutSeconds: null,
      notes: null,
      source: 'config',
    });
    const stored = await peers.findPeerRecord('idp-guarded');
    expect(stored).toMatchObject({ authType: 'oauth2', authSecret: 'client-secret-value', oauth2 });

    const { db } = await import('../../lib/db/client');
    const row = await db().peer.findUnique({ where: { name: 'idp-guarded' } });
    expect(row?.authSecret).toMatch(/^enc:v1:/);
    expect(row?.oauth2).not.toContain('client-secret-value');

    const { toPublicPeer } = await import('../../lib/peers/schemas');
    const shown = toPublicPeer(stored!);
    expect(shown.auth).toEqual({ type: 'oauth2', configured: true, oauth2: { clientId: 'hub', tokenUrl: 'https://idp.example/token', scopes: ['a2a'] } });
    expect(JSON.stringify(shown)).not.toContain('client-secret-value');

    await peers.updatePeerRecord('idp-guarded', { authType: 'bearer', authSecret: 'tok', oauth2: null });
    expect((await peers.findPeerRecord('idp-guarded'))?.oauth2).toBeNull();
  });
});
