/**
 * Every card Switchboard serves is signed (A2A v1.0 §8.4, decisions 198–199), after its URLs
 * are filled in for the request's origin, so the signature covers exactly what is served. The
 * protected header names the key (`kid`) and where its public half is published (`jku`, this
 * origin's /.well-known/jwks.json).
 *
 * ECDSA signatures are randomised: signing afresh at every request would change the card's
 * bytes, hence its ETag, each time. A signature is therefore remembered per (key, payload).
 */
import { createHash } from 'node:crypto';
import { cardKeys } from '../auth/card-keys';
import { canonicalPayload, signCard, type AgentCardSignature } from '../protocol/card-signature';
import { appPart } from '../process-singleton';

export const JWKS_PATH = '/.well-known/jwks.json';

/** Distinct signed cards remembered (agents × generations × key states × origins); bounded. */
const MAX_REMEMBERED = 1_000;
const remembered = () => appPart('cardSignatures', () => new Map<string, AgentCardSignature>());

export async function signedCard<T extends Record<string, unknown>>(card: T, baseUrl: string): Promise<T & { signatures: AgentCardSignature[] }> {
  const { signing } = await cardKeys();
  const memoKey = createHash('sha256').update(`${signing.kid}\0${baseUrl}\0`).update(canonicalPayload(card)).digest('base64url');
  const seen = remembered();
  const known = seen.get(memoKey);
  if (known) return { ...card, signatures: [known] };
  const signed = await signCard(card, signing.key, { alg: signing.alg, kid: signing.kid, typ: 'JOSE', jku: `${baseUrl}${JWKS_PATH}` });
  if (seen.size >= MAX_REMEMBERED) seen.clear();
  seen.set(memoKey, signed.signatures[0]);
  return signed;
}

/** The published keys (current and previous): public halves only. */
export async function publishedKeys(): Promise<{ keys: Record<string, unknown>[] }> {
  return (await cardKeys()).jwks as { keys: Record<string, unknown>[] };
}

declare module '../process-singleton' {
  interface AppParts {
    /** Served cards' signatures, per card. */
    cardSignatures: Map<string, AgentCardSignature>;
  }
}
