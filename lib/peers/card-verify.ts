/**
 * A peer with a pinned card key (`cardKey`, decision 200) is called only when its card carries a
 * signature that verifies with the pinned key: a public JWK, or the JWKS read from the pinned URL
 * (never from the card's own `jku`, which whoever altered the card also controls). A card that
 * fails is refused with the reason; it is neither used nor cached. Unpinned peers are not checked.
 */
import { createLocalJWKSet, importJWK, type JSONWebKeySet, type JWK } from 'jose';
import { bodyError, httpRequest } from '../client/http-transport';
import { verifyCard, type KeyLookup } from '../protocol/card-signature';
import { linkedSignal } from '../util/abortable';
import { headersFor, type ResolvedTarget } from './resolve';

/** A pinned JWKS larger than this is refused (16 RSA-4096 keys fit easily). */
const MAX_JWKS_BYTES = 64 * 1024;

/** The refusal: a dispatch records its message on the task; the peer test reports it. */
export class CardVerificationError extends Error {}

async function readJwks(target: ResolvedTarget, url: string, signal?: AbortSignal): Promise<JSONWebKeySet> {
  const ms = target.timeout.ms;
  const controller = linkedSignal([signal], { ms, reason: () => new Error(`no answer within ${ms / 1000} s`) });
  try {
    const res = await httpRequest({ url, method: 'GET', headers: { ...headersFor(target, url), Accept: 'application/json' }, signal: controller.signal });
    const text = await res.text().catch((err) => Promise.reject(bodyError(err, controller.signal)));
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    if (text.length > MAX_JWKS_BYTES) throw new Error(`larger than ${MAX_JWKS_BYTES} bytes`);
    const jwks = JSON.parse(text) as JSONWebKeySet;
    if (!Array.isArray(jwks?.keys)) throw new Error('not a JWKS (no "keys" array)');
    return jwks;
  } finally {
    controller.dispose();
  }
}

async function pinnedLookup(target: ResolvedTarget, jwk: JWK | undefined, jwksUrl: string | undefined, signal?: AbortSignal): Promise<KeyLookup> {
  if (jwk) return async (header) => importJWK(jwk, header.alg);
  let jwks: JSONWebKeySet;
  try {
    jwks = await readJwks(target, jwksUrl!, signal);
  } catch (err) {
    throw new CardVerificationError(`${label(target)}: the pinned JWKS ${jwksUrl} cannot be read (${(err as Error).message}); the card cannot be verified`);
  }
  return createLocalJWKSet(jwks) as KeyLookup;
}

const label = (target: ResolvedTarget) => `peer ${target.peerName ?? target.url}`;

/** Resolves when the target has no pin or its card verifies; else throws CardVerificationError. */
export async function verifyPinnedCard(target: ResolvedTarget, card: Record<string, unknown>, signal?: AbortSignal): Promise<void> {
  const pin = target.cardKey;
  if (!pin) return;
  const lookup = await pinnedLookup(target, pin.jwk as JWK | undefined, pin.jwksUrl, signal);
  const failure = await verifyCard(card, lookup);
  if (failure) throw new CardVerificationError(`${label(target)}: agent card signature verification failed against the pinned ${pin.jwk ? 'key' : `JWKS ${pin.jwksUrl}`}: ${failure}; the dispatch is refused`);
}
