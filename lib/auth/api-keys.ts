/**
 * Inbound A2A authentication with API keys (design §7). Keys are shown once at creation and
 * stored hashed. When no key exists the endpoint is open (only allowed on a loopback bind; see
 * the start-up check in lib/runtime/boot.ts). Lookups are cached briefly so authenticated calls stay cheap.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { countApiKeys, deleteApiKey, findApiKeyByHash, insertApiKey, listApiKeys, markApiKeyUsed, type ApiKeyRecord } from '../db/key-repo';
import { errorMessage, log } from '../log';
import { processSingleton } from '../process-singleton';
import { isSelfToken, SELF_TOKEN_HEADER } from './self-token';
import { ANONYMOUS_OWNER, SELF_OWNER } from '../db/task-scope';

const CACHE_MS = 2_000;
/** `lastUsedAt` is written at most this often per key: a busy key costs one write a minute. */
export const LAST_USED_WRITE_MS = 60_000;

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

interface KeyCache {
  anyKeyUntil: number;
  anyKey: boolean;
  verified: Map<string, { record: ApiKeyRecord | null; until: number }>;
}

const cache = () => processSingleton<KeyCache>('api-key-cache', () => ({ anyKeyUntil: 0, anyKey: false, verified: new Map() }));

function invalidate(): void {
  const c = cache();
  c.anyKeyUntil = 0;
  c.verified.clear();
}

export async function keysRequired(): Promise<boolean> {
  const c = cache();
  if (Date.now() > c.anyKeyUntil) {
    c.anyKey = (await countApiKeys()) > 0;
    c.anyKeyUntil = Date.now() + CACHE_MS;
  }
  return c.anyKey;
}

export async function verifyKey(key: string): Promise<ApiKeyRecord | null> {
  const hash = hashKey(key);
  const c = cache();
  const hit = c.verified.get(hash);
  if (hit && hit.until > Date.now()) return hit.record;
  const record = await findApiKeyByHash(hash);
  if (c.verified.size > 10_000) c.verified.clear();
  c.verified.set(hash, { record, until: Date.now() + CACHE_MS });
  return record;
}

const lastUseWrites = () => processSingleton('api-key-last-use', () => new Map<string, number>());

/** True when a use of key `id` at `now` should be written (the first in LAST_USED_WRITE_MS). */
export function shouldRecordUse(id: string, now: number, written = lastUseWrites()): boolean {
  const last = written.get(id);
  if (last !== undefined && now - last < LAST_USED_WRITE_MS) return false;
  if (written.size > 10_000) written.clear();
  written.set(id, now);
  return true;
}

function recordUse(record: ApiKeyRecord): void {
  const now = Date.now();
  if (!shouldRecordUse(record.id, now)) return;
  markApiKeyUsed(record.id, new Date(now)).catch((err) => log.warn('could not record an API key use', { key: record.name, error: errorMessage(err) }));
}

/** Creates a key; the plain key is returned once and never stored. */
export async function createApiKey(name: string, role = 'agent'): Promise<{ key: string; record: ApiKeyRecord }> {
  const key = `sb_${randomBytes(24).toString('base64url')}`;
  const record = await insertApiKey(randomUUID(), name, hashKey(key), role);
  invalidate();
  return { key, record };
}

export async function revokeApiKey(id: string): Promise<boolean> {
  const removed = await deleteApiKey(id);
  invalidate();
  return removed;
}

export { listApiKeys };

/** Anything carrying request headers: an HTTP Request, or a gRPC call's metadata as Headers. */
export type HeaderCarrier = Pick<Request, 'headers'>;

/** The credential a caller presented: `Authorization: Bearer <key>` or `X-API-Key: <key>`. */
export function presentedKey(req: HeaderCarrier): string | null {
  const auth = req.headers.get('authorization');
  if (auth?.toLowerCase().startsWith('bearer ')) return auth.slice(7).trim();
  return req.headers.get('x-api-key')?.trim() || null;
}

/**
 * `caller` is the name we know the caller by; `owner` is what its tasks are recorded under:
 * the key's id (names may repeat, ids never), or the shared "anonymous" while no key exists;
 * `ownerName` is how the dashboard shows that owner.
 */
export type InboundAuth = { ok: true; caller: string; owner: string; ownerName: string } | { ok: false; message: string; response: Response };

const callerOwning = (caller: string, owner: string, ownerName = owner): InboundAuth => ({ ok: true, caller, owner, ownerName });

export async function authenticateInbound(req: HeaderCarrier): Promise<InboundAuth> {
  const open = !(await keysRequired());
  if (isSelfToken(req.headers.get(SELF_TOKEN_HEADER))) return callerOwning('self', open ? ANONYMOUS_OWNER : SELF_OWNER);
  if (open) return callerOwning(ANONYMOUS_OWNER, ANONYMOUS_OWNER);
  const key = presentedKey(req);
  const record = key ? await verifyKey(key) : null;
  if (record) {
    recordUse(record);
    return callerOwning(record.name, record.id, record.name);
  }
  const message = key ? 'invalid API key' : 'an API key is required (Authorization: Bearer <key> or X-API-Key)';
  return {
    ok: false,
    message,
    response: Response.json(
      { error: message },
      { status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="switchboard", error="invalid_token"' } },
    ),
  };
}
