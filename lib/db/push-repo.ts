/**
 * Push-notification configs per task. URL, token and authentication are stored encrypted
 * (secret-box.ts): a webhook URL often carries its secret in the path or query.
 */
import { db } from './client';
import { checkRowSecrets, openSecret, sealSecret, type ResealReport } from './secret-box';
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

export async function countPushConfigs(taskId: string): Promise<number> {
  return db().pushConfig.count({ where: { taskId } });
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

const RESEAL_PAGE = 500;

/**
 * Seals again URLs, tokens and credentials not sealed with the current key (plaintext rows from
 * an older version, rows sealed with SWITCHBOARD_SECRET_KEY_PREVIOUS), a page at a time; names
 * the configs no accepted key opens. The update matches the values read (concurrent starts).
 */
export async function sealPushSecretsAgain(): Promise<ResealReport> {
  const report: ResealReport = { resealed: 0, unreadable: [] };
  let after: { taskId: string; id: string } | undefined;
  for (;;) {
    const rows = await db().pushConfig.findMany({
      where: after ? { OR: [{ taskId: { gt: after.taskId } }, { taskId: after.taskId, id: { gt: after.id } }] } : {},
      orderBy: [{ taskId: 'asc' }, { id: 'asc' }],
      take: RESEAL_PAGE,
      select: { taskId: true, id: true, url: true, token: true, authentication: true },
    });
    for (const row of rows) await sealPushRowAgain(row, report);
    if (rows.length < RESEAL_PAGE) return report;
    after = rows[rows.length - 1];
  }
}

async function sealPushRowAgain(row: Pick<Row, 'taskId' | 'id' | 'url' | 'token' | 'authentication'>, report: ResealReport): Promise<void> {
  const check = checkRowSecrets({ 'PushConfig.url': row.url, 'PushConfig.token': row.token, 'PushConfig.authentication': row.authentication });
  if (check.kind === 'unreadable') report.unreadable.push(`push config "${row.id}" of task ${row.taskId} (${check.columns.join(', ')})`);
  if (check.kind !== 'stale') return;
  const { 'PushConfig.url': url, 'PushConfig.token': token, 'PushConfig.authentication': authentication } = check.update;
  const where = { taskId: row.taskId, id: row.id, url: row.url, token: row.token, authentication: row.authentication };
  report.resealed += (await db().pushConfig.updateMany({ where, data: { url: url ?? row.url, token: token ?? null, authentication: authentication ?? null } })).count;
}
