/**
 * Agent card signatures (A2A v1.0 §8.4): a detached JWS (flattened: `{protected, signature}`)
 * over the RFC 8785 (JCS) canonical JSON of the card without its `signatures` field. The
 * signature covers the whole served document, the v0.3 fields of a dual card included
 * (decision 198). Signing and verifying share canonicalPayload(), so they cannot drift.
 */
import canonicalize from 'canonicalize';
import { base64url, flattenedVerify, FlattenedSign, type CryptoKey, type FlattenedJWSInput, type JWSHeaderParameters, type KeyObject } from 'jose';

export interface AgentCardSignature {
  protected: string;
  signature: string;
  header?: Record<string, unknown>;
}

type Card = Record<string, unknown>;
type SigningKey = CryptoKey | KeyObject | Uint8Array;

/** The bytes a card's signatures cover: the JCS form of the card minus `signatures`. */
export function canonicalPayload(card: Card): Uint8Array {
  const { signatures: _signatures, ...unsigned } = card;
  return new TextEncoder().encode(canonicalize(unsigned) ?? '');
}

/** The card with one more signature, made with `key` under the protected header given. */
export async function signCard<T extends Card>(card: T, key: SigningKey, protectedHeader: JWSHeaderParameters & { alg: string; kid: string }): Promise<T & { signatures: AgentCardSignature[] }> {
  const jws = await new FlattenedSign(canonicalPayload(card)).setProtectedHeader(protectedHeader).sign(key);
  const existing = Array.isArray(card.signatures) ? (card.signatures as AgentCardSignature[]) : [];
  return { ...card, signatures: [...existing, { protected: jws.protected!, signature: jws.signature }] };
}

/** A card's signatures, read defensively (a peer's card is untrusted input). */
export function signaturesOf(card: Card): AgentCardSignature[] {
  const list = Array.isArray(card.signatures) ? card.signatures : [];
  return list.filter((s): s is AgentCardSignature => !!s && typeof s === 'object' && typeof (s as Card).protected === 'string' && typeof (s as Card).signature === 'string');
}

/** Resolves the verification key for one signature's protected header (jose's key-lookup shape). */
export type KeyLookup = (header: JWSHeaderParameters, token: FlattenedJWSInput) => Promise<CryptoKey | KeyObject | Uint8Array>;

/**
 * Null when at least one signature verifies with a key `lookup` yields; else why not (no
 * signature, or each signature's failure), for the refusal a dispatch records.
 */
export async function verifyCard(card: Card, lookup: KeyLookup): Promise<string | null> {
  const signatures = signaturesOf(card).slice(0, 8); // bounded: each one may cost a key fetch
  if (!signatures.length) return 'the card carries no signature';
  // Detached (RFC 7515 appendix F): the payload travels beside the JWS, base64url as b64 requires.
  const payload = base64url.encode(canonicalPayload(card));
  const failures: string[] = [];
  for (const s of signatures) {
    try {
      await flattenedVerify({ protected: s.protected, signature: s.signature, payload, ...(s.header ? { header: s.header } : {}) }, lookup);
      return null;
    } catch (err) {
      failures.push(describeFailure(s, err));
    }
  }
  return failures.join('; ');
}

function describeFailure(s: AgentCardSignature, err: unknown): string {
  let kid = '?';
  try {
    kid = String((JSON.parse(new TextDecoder().decode(base64url.decode(s.protected))) as Card).kid ?? '?').slice(0, 100); // untrusted: bounded in the reason
  } catch {
    /* an unreadable header: the error says so */
  }
  const code = (err as { code?: string }).code;
  const reason = code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' ? 'signature does not match the card (tampered or re-serialised)' : (err as Error).message;
  return `kid ${kid}: ${reason}`;
}
