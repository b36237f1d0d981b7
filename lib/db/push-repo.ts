/**
 * Push-notification configs per task. URL, token and authentication are stored encrypted
 * (secret-box.ts): a webhook URL often carries its secret in the path or query.
 */
import { db } from './client';
import { isSealed, openSecret, sealSecret } from './secret-box';
import type { ProtocolVersion } from '../protocol/types';

export interface PushConfigRecord {
  taskId: string;
  id: string;
  url: string;
  token: string | null;
  authentication: { scheme: string; credentials?: string } | null;
  version: ProtocolVersion;
}

type Row = { taskId: string; id: string; url: string; token: string | null; authentication: string | null; version: string };

function toRecord(r: Row): PushConfigRecord {
  const authentication = openSecret(r.authentication, 'PushConfig.authentication');
  return {
    taskId: r.taskId,
    id: r.id,
    url: openSecret(r.url, 'PushConfig.url') ?? '',
    token: openSecret(r.token, 'PushConfig.token'),
    authentication: authentication ? JSON.parse(authentication) : null,
    version: r.version === '1.0' ? '1.0' : '0.3',
  };
}

function sealedColumns(url: string, token: string | null, authentication: string | null): Pick<Row, 'url' | 'token' | 'authentication'> {
  return { url: sealSecret(url, 'PushConfig.url'), token: sealSecret(token, 'PushConfig.token'), authentication: sealSecret(authentication, 'PushConfig.authentication') };
}

export async function upsertPushConfig(c: PushConfigRecord): Promise<PushConfigRecord> {
  const data = { ...sealedColumns(c.url, c.token, c.authentication ? JSON.stringify(c.authentication) : null), version: c.version };
  const row = await db().pushConfig.upsert({
    where: { taskId_id: { taskId: c.taskId, id: c.id } },
    create: { taskId: c.taskId, id: c.id, ...data },
    update: data,
  });
  return toRecord(row);
}

export async function findPushConfig(taskId: string, id: string): Promise<PushConfigRecord | null> {
  const row = await db().pushConfig.findUnique({ where: { taskId_id: { taskId, id } } });
  return row ? toRecord(row) : null;
}

export async function listPushConfigs(taskId: string): Promise<PushConfigRecord[]> {
  return (await db().pushConfig.findMany({ where: { taskId }, orderBy: { createdAt: 'asc' } })).map(toRecord);
}

export async function deletePushConfig(taskId: string, id: string): Promise<boolean> {
  return (await db().pushConfig.deleteMany({ where: { taskId, id } })).count > 0;
}

export async function taskIdsWithPushConfigs(): Promise<string[]> {
  const rows = await db().pushConfig.findMany({ select: { taskId: true }, distinct: ['taskId'] });
  return rows.map((r) => r.taskId);
}

/** Encrypts URLs, tokens and credentials an older version stored in plain text; returns rows sealed. */
export async function sealPlaintextPushSecrets(): Promise<number> {
  const rows = await db().pushConfig.findMany({ where: { OR: [{ NOT: { url: { startsWith: 'enc:' } } }, { token: { not: null } }, { authentication: { not: null } }] } });
  const plain = rows.filter((r) => !isSealed(r.url) || (r.token !== null && !isSealed(r.token)) || (r.authentication !== null && !isSealed(r.authentication)));
  for (const row of plain) {
    const url = openSecret(row.url, 'PushConfig.url');
    if (url === null) continue; // sealed under another key: left as it is (and reported by openSecret)
    const token = openSecret(row.token, 'PushConfig.token');
    const authentication = openSecret(row.authentication, 'PushConfig.authentication');
    await db().pushConfig.updateMany({ where: { taskId: row.taskId, id: row.id }, data: sealedColumns(url, token, authentication) });
  }
  return plain.length;
}
