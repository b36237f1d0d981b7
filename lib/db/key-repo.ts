/** API keys for inbound A2A calls. Only the SHA-256 hash of a key is stored. */
import { db } from './client';

export interface ApiKeyRecord {
  id: string;
  name: string;
  role: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** The key's own quotas as stored (JSON, read by lib/quotas); null: the defaults. */
  quotas: string | null;
}

const toRecord = (r: { id: string; name: string; role: string; createdAt: Date; lastUsedAt: Date | null; quotas: string | null }): ApiKeyRecord => ({
  id: r.id,
  name: r.name,
  role: r.role,
  createdAt: r.createdAt.toISOString(),
  lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  quotas: r.quotas,
});

export async function insertApiKey(id: string, name: string, hash: string, role: string): Promise<ApiKeyRecord> {
  return toRecord(await db().apiKey.create({ data: { id, name, hash, role } }));
}

export async function findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
  const row = await db().apiKey.findUnique({ where: { hash } });
  return row ? toRecord(row) : null;
}

export async function countApiKeys(): Promise<number> {
  return db().apiKey.count();
}

export async function listApiKeys(): Promise<ApiKeyRecord[]> {
  return (await db().apiKey.findMany({ orderBy: { createdAt: 'asc' } })).map(toRecord);
}

export async function deleteApiKey(id: string): Promise<boolean> {
  return (await db().apiKey.deleteMany({ where: { id } })).count > 0;
}

export async function markApiKeyUsed(id: string, at: Date): Promise<void> {
  await db().apiKey.updateMany({ where: { id }, data: { lastUsedAt: at } });
}

/** A key's own quotas (JSON), or null for the defaults; undefined when no key has that id. */
export async function findApiKeyQuotas(id: string): Promise<string | null | undefined> {
  const row = await db().apiKey.findUnique({ where: { id }, select: { quotas: true } });
  return row ? row.quotas : undefined;
}

/** Sets a key's own quotas (JSON, or null for the defaults); false when no key has that id. */
export async function setApiKeyQuotas(id: string, quotas: string | null): Promise<boolean> {
  return (await db().apiKey.updateMany({ where: { id }, data: { quotas } })).count > 0;
}
