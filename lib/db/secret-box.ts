/**
 * Secrets at rest (issue 11 §6, design §7): peer secrets, peer extra headers (they may carry
 * keys), push webhook URLs (their path or query often is the webhook's secret; issue 27) and
 * push tokens/credentials are stored
 * encrypted with AES-256-GCM. The key comes from SWITCHBOARD_SECRET_KEY, or else from a key
 * file generated beside the database (`secret.key`, 0600). Stored form: `enc:v1:` + base64url of
 * IV (12 bytes) | tag (16) | ciphertext; the column's name is bound in as associated data, so a
 * value cannot be moved to another column. A value without the prefix is a plaintext row from
 * an older version: it reads as is, and sealPlaintextSecrets() encrypts such rows at boot.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { getSettings } from '../config/settings';
import { log } from '../log';
import { processSingleton } from '../process-singleton';
import { writePrivateFile } from './file-modes';
import { sqliteFilePath } from './sqlite-path';

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

function key(): Buffer {
  return processSingleton('secret-box-key', () => Buffer.from(hkdfSync('sha256', keyMaterial(), 'switchboard', 'stored secrets v1', 32)));
}

export function sealSecret(plain: string, column: SecretColumn): string;
export function sealSecret(plain: string | null, column: SecretColumn): string | null;
export function sealSecret(plain: string | null, column: SecretColumn): string | null {
  if (plain === null) return null;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key(), iv).setAAD(Buffer.from(column));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The plain value; a plaintext (old) row as is; null when it cannot be decrypted (key changed). */
export function openSecret(stored: string | null, column: SecretColumn): string | null {
  if (stored === null || !isSealed(stored)) return stored;
  try {
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key(), raw.subarray(0, IV_BYTES)).setAAD(Buffer.from(column));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    log.error('a stored secret cannot be decrypted: SWITCHBOARD_SECRET_KEY or the key file changed; it is treated as missing', { column });
    return null;
  }
}
