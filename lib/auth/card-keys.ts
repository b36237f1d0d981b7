/**
 * The keys Switchboard signs its agent cards with (A2A v1.0 §8.4, decision 199):
 * - the signing key: SWITCHBOARD_CARD_SIGNING_KEY (a file holding a PEM PKCS#8 or a private
 *   JWK), else `card-signing-key.jwk` generated beside the database (P-256, 0600), like secret.key;
 * - published keys: the signing key's public half plus every file of
 *   SWITCHBOARD_CARD_PUBLISHED_KEYS (previous keys, PEM or JWK, public or private: only the
 *   public half is published), so cards signed before a rotation keep verifying.
 * `kid` is the RFC 7638 thumbprint of the public key: stable, nothing to store or configure.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { getSettings } from '../config/settings';
import { writePrivateFile } from '../db/file-modes';
import { secretKeyFilePath } from '../db/secret-box';
import { log } from '../log';
import { appPart } from '../process-singleton';

export const CARD_KEY_FILE = 'card-signing-key.jwk';

export interface CardSigningKey {
  key: CryptoKey;
  alg: string;
  kid: string;
}

/** The JWS algorithm a key type signs with. */
function algorithmFor(jwk: JWK): string {
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') return 'ES256';
  if (jwk.kty === 'EC' && jwk.crv === 'P-384') return 'ES384';
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return 'EdDSA';
  if (jwk.kty === 'RSA') return 'RS256';
  throw new Error(`unsupported card signing key type ${jwk.kty}${jwk.crv ? ` ${jwk.crv}` : ''} (expected EC P-256/P-384, Ed25519 or RSA)`);
}

function publicPart(jwk: JWK): JWK {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, oth: _oth, key_ops: _ops, ext: _ext, ...pub } = jwk;
  return pub;
}

/** A key file's JWK (private when the file holds one): PEM (PKCS#8 or SPKI) or JSON. */
function readKeyFile(file: string, setting: string): JWK {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new Error(`${setting}: cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    if (text.startsWith('{')) return JSON.parse(text) as JWK;
    const key = text.includes('PRIVATE KEY') ? createPrivateKey(text) : createPublicKey(text);
    return key.export({ format: 'jwk' }) as JWK;
  } catch (err) {
    throw new Error(`${setting}: ${file} is not a PEM or JWK key: ${(err as Error).message}`);
  }
}

/** The generated key beside the database (made on first use); null for an in-memory database. */
async function generatedKeyFile(): Promise<string | null> {
  const secretFile = secretKeyFilePath(getSettings().databaseUrl);
  if (!secretFile) return null;
  const file = path.join(path.dirname(secretFile), CARD_KEY_FILE);
  if (fs.existsSync(file)) return file;
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  try {
    writePrivateFile(file, `${JSON.stringify(await exportJWK(privateKey))}\n`);
    log.info('generated the agent card signing key', { file });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // another process made it first
  }
  return file;
}

async function loadSigningKey(): Promise<{ signing: CardSigningKey; publicJwk: JWK }> {
  const configured = getSettings().cardSigningKeyFile;
  const file = configured ?? (await generatedKeyFile());
  const jwk = file ? readKeyFile(file, 'SWITCHBOARD_CARD_SIGNING_KEY') : await exportJWK((await generateKeyPair('ES256', { extractable: true })).privateKey);
  if (!jwk.d) throw new Error(`SWITCHBOARD_CARD_SIGNING_KEY: ${file} holds a public key; cards need a private key to be signed`);
  const alg = algorithmFor(jwk);
  const publicJwk = publicPart(jwk);
  const kid = await calculateJwkThumbprint(publicJwk);
  const key = (await importJWK({ ...jwk, alg }, alg)) as CryptoKey;
  return { signing: { key, alg, kid }, publicJwk: { ...publicJwk, kid, alg, use: 'sig' } };
}

async function loadPublishedKeys(): Promise<JWK[]> {
  const out: JWK[] = [];
  for (const file of getSettings().cardPublishedKeyFiles) {
    const pub = publicPart(readKeyFile(file, 'SWITCHBOARD_CARD_PUBLISHED_KEYS'));
    out.push({ ...pub, kid: await calculateJwkThumbprint(pub), alg: algorithmFor(pub), use: 'sig' });
  }
  return out;
}

interface CardKeys {
  signing: CardSigningKey;
  jwks: { keys: JWK[] };
}

/** Loaded once per app (a rotation is a restart with new settings). */
export function cardKeys(): Promise<CardKeys> {
  return appPart('cardSigningKeys', async () => {
    const { signing, publicJwk } = await loadSigningKey();
    const previous = (await loadPublishedKeys()).filter((k) => k.kid !== signing.kid);
    return { signing, jwks: { keys: [publicJwk, ...previous] } };
  });
}

declare module '../process-singleton' {
  interface AppParts {
    /** The card signing keys, loaded once. */
    cardSigningKeys: Promise<CardKeys>;
  }
}
