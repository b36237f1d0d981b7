import { generateKeyPair, exportJWK, importJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { canonicalPayload, signCard, verifyCard, type KeyLookup } from './card-signature';

const card = { name: 'Echo', version: '1.0', skills: [{ id: 'echo', tags: ['general'] }], capabilities: { streaming: true, ratio: 1.5 } };

async function keys() {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const lookup: KeyLookup = async () => importJWK(await exportJWK(publicKey), 'ES256');
  return { privateKey, lookup };
}

describe('card signatures (JWS over JCS)', () => {
  it('the payload is RFC 8785 canonical JSON without `signatures`: member order does not matter', () => {
    const reordered = { capabilities: { ratio: 1.5, streaming: true }, skills: card.skills, version: '1.0', name: 'Echo', signatures: [{ protected: 'x', signature: 'y' }] };
    const text = new TextDecoder().decode(canonicalPayload(reordered));
    expect(text).toBe('{"capabilities":{"ratio":1.5,"streaming":true},"name":"Echo","skills":[{"id":"echo","tags":["general"]}],"version":"1.0"}');
    expect(canonicalPayload(card)).toEqual(canonicalPayload(reordered));
  });

  it('a signed card verifies, also after a JSON round trip that reorders members', async () => {
    const { privateKey, lookup } = await keys();
    const signed = await signCard(card, privateKey, { alg: 'ES256', kid: 'k1' });
    expect(signed.signatures).toHaveLength(1);
    expect(Object.keys(signed.signatures[0]).sort()).toEqual(['protected', 'signature']); // detached: no payload
    const reordered = JSON.parse(JSON.stringify({ signatures: signed.signatures, skills: signed.skills, capabilities: signed.capabilities, version: signed.version, name: signed.name }));
    expect(await verifyCard(reordered, lookup)).toBeNull();
  });

  it('a changed card, a missing signature or another key fails with the reason', async () => {
    const { privateKey, lookup } = await keys();
    const signed = await signCard(card, privateKey, { alg: 'ES256', kid: 'k1' });
    expect(await verifyCard({ ...signed, name: 'Evil' }, lookup)).toBe('kid k1: signature does not match the card (tampered or re-serialised)');
    expect(await verifyCard(card, lookup)).toBe('the card carries no signature');
    const other = await keys();
    expect(await verifyCard(signed, other.lookup)).toMatch(/^kid k1: signature does not match/);
  });
});
