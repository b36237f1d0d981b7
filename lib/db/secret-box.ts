/**
 * Secrets at rest: peer secrets, peer extra headers (they may carry
 * keys), push webhook URLs (their path or query often is the webhook's secret) and
 * push tokens/credentials are stored
 * encrypted with AES-256-GCM. The key comes from SWITCHBOARD_SECRET_KEY, or else from a key
 * file generated beside the database (`secret.key`, 0600). Stored form: `enc:v1:` + base64url of
 * IV (12 bytes) | tag (16) | ciphertext; the column's name is bound in as associated data, so a
 * value cannot be moved to another column. A value without the prefix is a plaintext row from
 * an older version: it reads as is. At start-up every stored secret is checked
 * (lib/runtime/stored-secrets.ts): plaintext rows and rows sealed with SWITCHBOARD_SECRET_KEY_PREVIOUS
 * are sealed again with the current key, and one that no accepted key opens refuses the start,
 * so instances of one PostgreSQL cluster cannot run with different keys (decision 210).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { getSettings } from '../config/settings';
import { log } from '../log';
import { appPart } from '../process-singleton';
import { writePrivateFile } from './file-modes';
import { sqliteFilePath } from './sqlite/path';

const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SECRET_KEY_FILE = 'secret.key';

/** Where each sealed value lives; bound into the ciphertext. */
export type SecretColumn = 'Peer.authSecret' | 'Peer.headers' | 'PushConfig.url' | 'PushConfig.token' | 'PushConfig.authentication';

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** The key file for a database URL: beside an SQLite file, else under ./data. */
export function secretKeyFilePath(databaseUrl: string): string | null {
  let file: string;
  try {
    file = sqliteFilePath(databaseUrl);
  } catch {
    return path.resolve(process.cwd(), 'data', SECRET_KEY_FILE);
  }
  return file === ':memory:' ? null : path.join(path.dirname(file), SECRET_KEY_FILE);
}

function keyMaterial(): string {
  const settings = getSettings();
  if (settings.secretKey) return settings.secretKey;
  const file = secretKeyFilePath(settings.databaseUrl);
  if (!file) return randomBytes(32).toString('base64url'); // an in-memory database dies with the process
  try {
    writePrivateFile(file, `${randomBytes(32).toString('base64url')}\n`);
    log.info('generated the key for stored secrets', { file });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return fs.readFileSync(file, 'utf8').trim();
}

/** What a key derived from the cluster's key material is for; each purpose gets its own key. */
export type KeyPurpose = 'stored secrets v1' | 'delegation tokens v1';

/**
 * Keys for a purpose, derived from the key material every instance of a cluster shares: the
 * current one first (it seals and signs), then the one from SWITCHBOARD_SECRET_KEY_PREVIOUS
 * during a rotation (it only opens and verifies). The app's: the key material (a key file may be
 * created) is read once, not once per route bundle.
 */
export function derivedKeys(purpose: KeyPurpose): Buffer[] {
  const derived = appPart('derivedKeys', () => new Map<KeyPurpose, Buffer[]>());
  let keys = derived.get(purpose);
  if (!keys) {
    const derive = (material: string) => Buffer.from(hkdfSync('sha256', material, 'switchboard', purpose, 32));
    const previous = getSettings().previousSecretKey;
    derived.set(purpose, (keys = [derive(keyMaterial()), ...(previous ? [derive(previous)] : [])]));
  }
  return keys;
}

const secretKeys = () => derivedKeys('stored secrets v1');

export function sealSecret(plain: string, column: SecretColumn): string;
export function sealSecret(plain: string | null, column: SecretColumn): string | null;
export function sealSecret(plain: string | null, column: SecretColumn): string | null {
  if (plain === null) return null;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', secretKeys()[0], iv).setAAD(Buffer.from(column));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

function openWith(key: Buffer, stored: string, column: SecretColumn): string | null {
  try {
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES)).setAAD(Buffer.from(column));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/**
 * A stored value opened with any accepted key. `current` is false for a plaintext row or one
 * sealed with the previous key: it should be sealed again (sealStoredSecretsAgain at start-up).
 */
export type OpenedSecret = { readable: true; plain: string | null; current: boolean } | { readable: false };

/** Opened sealed values kept for reuse (a relay reads its peer's row on every turn): bounded. */
const MAX_OPENED = 256;
const opened = () => appPart('openedSecrets', () => new Map<string, OpenedSecret>());

/**
 * A sealed value is opened once per process: the same stored text always opens to the same
 * plain value (a changed secret is a new sealed text, with a fresh IV), and the keys are fixed
 * for the process. Only readable values are kept, so a key that cannot open one is retried.
 */
export function tryOpenSecret(stored: string | null, column: SecretColumn): OpenedSecret {
  if (stored === null) return { readable: true, plain: null, current: true };
  if (!isSealed(stored)) return { readable: true, plain: stored, current: false };
  const memo = opened();
  const key = `${column}\n${stored}`;
  const known = memo.get(key);
  if (known) return known;
  const result = openSealed(stored, column);
  if (result.readable) {
    if (memo.size >= MAX_OPENED) memo.clear();
    memo.set(key, result);
  }
  return result;
}

function openSealed(stored: string, column: SecretColumn): OpenedSecret {
  const keys = secretKeys();
  for (let i = 0; i < keys.length; i++) {
    const plain = openWith(keys[i], stored, column);
    if (plain !== null) return { readable: true, plain, current: i === 0 };
  }
  return { readable: false };
}

/** The plain value; a plaintext (old) row as is; null when it cannot be decrypted (key changed). */
export function openSecret(stored: string | null, column: SecretColumn): string | null {
  const opened = tryOpenSecret(stored, column);
  if (opened.readable) return opened.plain;
  log.error('a stored secret cannot be decrypted: SWITCHBOARD_SECRET_KEY or the key file changed; it is treated as missing', { column });
  return null;
}

/** What checking one row's sealed columns found. */
export type RowSecretsCheck =
  | { kind: 'current' }
  | { kind: 'stale'; update: Partial<Record<SecretColumn, string | null>> }
  | { kind: 'unreadable'; columns: SecretColumn[] };

/**
 * Checks a row's stored secrets at start-up: all sealed with the current key; some plaintext or
 * sealed with the previous key (`update` holds every column sealed with the current key); or
 * some that no accepted key opens (the caller refuses the start).
 */
export function checkRowSecrets(values: Partial<Record<SecretColumn, string | null>>): RowSecretsCheck {
  const entries = Object.entries(values) as [SecretColumn, string | null][];
  const opened = entries.map(([column, stored]) => [column, tryOpenSecret(stored, column)] as const);
  const unreadable = opened.filter(([, o]) => !o.readable).map(([column]) => column);
  if (unreadable.length) return { kind: 'unreadable', columns: unreadable };
  if (opened.every(([, o]) => o.readable && o.current)) return { kind: 'current' };
  const update: Partial<Record<SecretColumn, string | null>> = {};
  for (const [column, o] of opened) if (o.readable) update[column] = sealSecret(o.plain, column);
  return { kind: 'stale', update };
}

/** What sealing stored secrets again found in one table. */
export interface ResealReport {
  resealed: number;
  /** Rows (named for the operator, never with their values) that no accepted key opens. */
  unreadable: string[];
}

declare module '../process-singleton' {
  interface AppParts {
    /** Keys derived from the cluster's key material, per purpose. */
    derivedKeys: Map<KeyPurpose, Buffer[]>;
    /** Sealed values already opened (tryOpenSecret), by column and sealed text. */
    openedSecrets: Map<string, OpenedSecret>;
  }
}
