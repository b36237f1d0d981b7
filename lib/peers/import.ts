/**
 * Importing a list of peers (`POST /api/peer-import`, used by `switchboard peers import`):
 * create the new ones, update the ones that differ, leave the equal ones alone, and say which
 * happened to each. The comparison runs here because only the server holds the secrets: a
 * re-run with the same token is "unchanged", one with a new token "updated (auth.token)", and
 * no secret ever leaves. Each entry stands alone: one bad entry is refused with its reason, the
 * others go on.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { findPeerByNormalizedUrl, findPeerRecord, type PeerRecord } from '../db/peer-repo';
import { normalizeAgentUrl } from '../client/normalize-url';
import { ClientError } from '../protocol/client-error';
import type { AuditActor } from '../audit/audit-log';
import { authFields, createPeer, updatePeer } from './registry';
import { PeerCreateSchema, type PeerCreateInput, type PeerPatchInput } from './schemas';
import { ensurePeersReady } from './sync';

export const MAX_IMPORTED_PEERS = 500;

/** Entries are validated one by one, so a bad one is named and refused alone. */
export const PeerImportSchema = z.strictObject({
  peers: z.array(z.unknown()).min(1, 'expected at least one peer').max(MAX_IMPORTED_PEERS, `at most ${MAX_IMPORTED_PEERS} peers per import`),
  dryRun: z.boolean({ error: 'expected true or false' }).default(false),
});
export type PeerImportInput = z.infer<typeof PeerImportSchema>;

export type ImportAction = 'created' | 'updated' | 'unchanged' | 'refused';

export interface ImportResult {
  /** The entry's name, or `#<index>` when it has none. */
  name: string;
  action: ImportAction;
  /** Fields that were (or, in a dry run, would be) set: `url`, `auth.type`, `auth.token`, `headers`, `timeoutSeconds`. */
  changes: string[];
  /** Why a refused entry was refused, naming the field. */
  error?: string;
}

/** `actor`: the operator importing; each peer created or changed is recorded in the audit log. */
export async function importPeers(input: PeerImportInput, actor?: AuditActor): Promise<ImportResult[]> {
  await ensurePeersReady();
  const seen = { names: new Set<string>(), urls: new Set<string>() };
  const results: ImportResult[] = [];
  for (const [index, raw] of input.peers.entries()) results.push(await importOne(raw, index, input.dryRun, seen, actor));
  return results;
}

async function importOne(raw: unknown, index: number, dryRun: boolean, seen: { names: Set<string>; urls: Set<string> }, actor?: AuditActor): Promise<ImportResult> {
  const label = typeof (raw as { name?: unknown })?.name === 'string' ? (raw as { name: string }).name : `#${index}`;
  const parsed = PeerCreateSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.map(String).join('.');
    return refused(label, field ? `${field}: ${issue.message}` : issue.message);
  }
  const entry = parsed.data;
  const normalizedUrl = normalizeAgentUrl(entry.url);
  if (seen.names.has(entry.name)) return refused(label, 'name: listed twice in this import');
  if (seen.urls.has(normalizedUrl)) return refused(label, `url: another entry of this import has this URL (${normalizedUrl})`);
  seen.names.add(entry.name);
  seen.urls.add(normalizedUrl);
  try {
    const existing = await findPeerRecord(entry.name);
    if (!existing) return await create(entry, normalizedUrl, dryRun, actor);
    return await update(existing, entry, dryRun, actor);
  } catch (err) {
    if (err instanceof ClientError) return refused(label, err.message);
    throw err;
  }
}

async function create(entry: PeerCreateInput, normalizedUrl: string, dryRun: boolean, actor?: AuditActor): Promise<ImportResult> {
  const owner = await findPeerByNormalizedUrl(normalizedUrl);
  if (owner) return refused(entry.name, `url: peer "${owner.name}" already has this URL (${normalizedUrl})`);
  if (!dryRun) await createPeer(entry, actor);
  const changes = ['url', 'auth.type', ...(entry.auth.type === 'none' ? [] : [secretField(entry.auth.type)]), ...(Object.keys(entry.headers).length ? ['headers'] : []), ...(entry.timeoutSeconds ? ['timeoutSeconds'] : [])];
  return { name: entry.name, action: 'created', changes };
}

async function update(existing: PeerRecord, entry: PeerCreateInput, dryRun: boolean, actor?: AuditActor): Promise<ImportResult> {
  if (existing.source !== 'api') {
    const where = existing.source === 'config' ? 'is declared in the config file (SWITCHBOARD_CONFIG); edit it there' : "is built in (this Switchboard's own agents)";
    return refused(entry.name, `peer "${entry.name}" ${where}`);
  }
  const { patch, changes } = differences(existing, entry);
  if (!changes.length) return { name: entry.name, action: 'unchanged', changes };
  if (!dryRun) await updatePeer(entry.name, patch, actor);
  return { name: entry.name, action: 'updated', changes };
}

/** What differs between the stored peer and the entry, as a patch and as field names. */
function differences(existing: PeerRecord, entry: PeerCreateInput): { patch: PeerPatchInput; changes: string[] } {
  const patch: PeerPatchInput = {};
  const changes: string[] = [];
  if (existing.url !== entry.url) {
    patch.url = entry.url;
    changes.push('url');
  }
  const wanted = authFields(entry.auth);
  const originMoved = patch.url !== undefined && new URL(patch.url).origin !== new URL(existing.url).origin;
  const typeChanged = existing.authType !== wanted.authType || (existing.authHeader ?? null) !== (wanted.authHeader ?? null);
  // A move to another origin drops the stored secret (registry.ts), so the entry's is sent again.
  const secretChanged = wanted.authSecret !== null && (originMoved || !sameSecret(existing.authSecret, wanted.authSecret ?? null));
  if (typeChanged || secretChanged) {
    patch.auth = entry.auth;
    if (typeChanged) changes.push('auth.type');
    if (secretChanged && entry.auth.type !== 'none') changes.push(secretField(entry.auth.type));
  }
  if (originMoved || !sameHeaders(existing.headers, entry.headers)) {
    patch.headers = entry.headers;
    if (!sameHeaders(existing.headers, entry.headers)) changes.push('headers');
  }
  const timeout = entry.timeoutSeconds ?? null;
  if (existing.timeoutSeconds !== timeout) {
    patch.timeoutSeconds = timeout;
    changes.push('timeoutSeconds');
  }
  return { patch, changes };
}

const secretField = (type: 'bearer' | 'apiKey') => (type === 'bearer' ? 'auth.token' : 'auth.key');

const refused = (name: string, error: string): ImportResult => ({ name, action: 'refused', changes: [], error });

/** Compared by digest in constant time: the comparison must not tell a caller how much of a token matched. */
function sameSecret(stored: string | null, given: string | null): boolean {
  if (stored === null || given === null) return stored === given;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(stored), digest(given));
}

function sameHeaders(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameSecret(a[k], b[k]));
}
