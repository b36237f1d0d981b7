/** Push-notification configs per task. */
import { db } from './client';

export interface PushConfigRecord {
  taskId: string;
  id: string;
  url: string;
  token: string | null;
  authentication: { scheme: string; credentials?: string } | null;
  version: '0.3' | '1.0';
}

type Row = { taskId: string; id: string; url: string; token: string | null; authentication: string | null; version: string };

const toRecord = (r: Row): PushConfigRecord => ({
  taskId: r.taskId,
  id: r.id,
  url: r.url,
  token: r.token,
  authentication: r.authentication ? JSON.parse(r.authentication) : null,
  version: r.version === '1.0' ? '1.0' : '0.3',
});

export async function upsertPushConfig(c: PushConfigRecord): Promise<PushConfigRecord> {
  const data = { url: c.url, token: c.token, authentication: c.authentication ? JSON.stringify(c.authentication) : null, version: c.version };
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
