/**
 * Inbound A2A authentication with API keys and, when configured, OIDC bearer JWTs. Keys are shown once at creation and
 * stored hashed. When no key exists and no OIDC issuer is configured the endpoint is open (only allowed on a loopback bind; see
 * the start-up check in lib/app/start-checks.ts). Lookups are cached briefly so authenticated calls stay cheap.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { countApiKeys, deleteApiKey, findApiKeyByHash, insertApiKey, listApiKeys, markApiKeyUsed, type ApiKeyRecord } from '../db/key-repo';
import { errorMessage, log } from '../log';
import { appPart } from '../process-singleton';
import { isSelfToken, SELF_TOKEN_HEADER } from './self-token';
import { ANONYMOUS_OWNER, SELF_OWNER } from '../db/task-scope';
import { getSettings, type Settings } from '../config/settings';
import { looksLikeJwt, verifyBearerJwt } from './oidc';
import { audited, type AuditActor } from '../audit/audit-log';

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

const cache = () => appPart('apiKeyCache', () => ({ anyKeyUntil: 0, anyKey: false, verified: new Map() }));

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

const lastUseWrites = () => appPart('apiKeyLastUse', () => new Map<string, number>());

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
export async function createApiKey(name: string, role = 'agent', actor?: AuditActor): Promise<{ key: string; record: ApiKeyRecord }> {
  return audited(
    actor,
    'key.create',
    { detail: { name, role } },
    async () => {
      const key = `sb_${randomBytes(24).toString('base64url')}`;
      const record = await insertApiKey(randomUUID(), name, hashKey(key), role);
      invalidate();
      return { key, record };
    },
    ({ record }) => ({ target: record.id }), // the id, never the key
  );
}

export async function revokeApiKey(id: string, actor?: AuditActor): Promise<boolean> {
  return audited(
    actor,
    'key.revoke',
    { target: id },
    async () => {
      const removed = await deleteApiKey(id);
      invalidate();
      return removed;
    },
    (removed) => (removed ? {} : { refusal: 'not_found' }),
  );
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
 * the key's id (names may repeat, ids never), `oidc:<issuer>:<subject>` for a bearer JWT
 * (lib/auth/oidc.ts), or the shared "anonymous" while no inbound auth is configured;
 * `ownerName` is how the dashboard shows that owner. A refusal carries its HTTP status
 * (401 unauthenticated, 403 not allowed this agent, 503 token issuer unreachable).
 */
export type InboundAuth =
  | { ok: true; caller: string; owner: string; ownerName: string }
  | { ok: false; status: 401 | 403 | 503; message: string; response: Response };

const callerOwning = (caller: string, owner: string, ownerName = owner): InboundAuth => ({ ok: true, caller, owner, ownerName });

/** True when A2A calls need a credential: an API key exists or OIDC issuers are configured. */
export async function inboundAuthRequired(settings: Settings = getSettings()): Promise<boolean> {
  return Boolean(settings.oidc) || (await keysRequired());
}

function refusal(status: 401 | 403 | 503, message: string, challenge: string): InboundAuth {
  const headers: Record<string, string> = { 'WWW-Authenticate': `Bearer realm="switchboard", ${challenge}` };
  if (status === 503) headers['Retry-After'] = '5';
  return { ok: false, status, message, response: Response.json({ error: message }, { status, headers }) };
}

/** RFC 6750 §3: a challenge's quoted values are printable ASCII without `"` or `\\`. */
const quoted = (text: string) => `"${text.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, "'")}"`;

async function authenticateJwt(token: string, agentSlug: string, settings: Settings): Promise<InboundAuth> {
  const outcome = await verifyBearerJwt(token, agentSlug, settings.oidc!);
  if (outcome.ok) return callerOwning(outcome.caller, outcome.owner, outcome.ownerName);
  const scope = outcome.scope ? `, scope=${quoted(outcome.scope)}` : '';
  return refusal(outcome.status, outcome.message, `error="${outcome.error}", error_description=${quoted(outcome.message)}${scope}`);
}

/**
 * The one inbound check every A2A binding (JSON-RPC, HTTP+JSON, gRPC) makes before anything
 * else: the self token, then a bearer JWT from a configured issuer, then an API key.
 */
export async function authenticateInbound(req: HeaderCarrier, agentSlug: string, settings: Settings = getSettings()): Promise<InboundAuth> {
  const open = !(await inboundAuthRequired(settings));
  if (isSelfToken(req.headers.get(SELF_TOKEN_HEADER))) return callerOwning('self', open ? ANONYMOUS_OWNER : SELF_OWNER);
  if (open) return callerOwning(ANONYMOUS_OWNER, ANONYMOUS_OWNER);
  const key = presentedKey(req);
  if (key && settings.oidc && looksLikeJwt(key)) return authenticateJwt(key, agentSlug, settings);
  const record = key ? await verifyKey(key) : null;
  if (record) {
    recordUse(record);
    return callerOwning(record.name, record.id, record.name);
  }
  const message = key ? 'invalid API key' : settings.oidc ? 'a bearer token is required (Authorization: Bearer <JWT or API key>)' : 'an API key is required (Authorization: Bearer <key> or X-API-Key)';
  return refusal(401, message, 'error="invalid_token"');
}

declare module '../process-singleton' {
  interface AppParts {
    /** When each key's last use was written. */
    apiKeyLastUse: Map<string, number>;
    /** Verified keys, briefly. */
    apiKeyCache: KeyCache;
  }
}
