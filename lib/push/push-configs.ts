/**
 * Push-notification config operations behind the JSON-RPC methods (both versions).
 */
import { randomUUID } from 'node:crypto';
import { deletePushConfig, findPushConfig, listPushConfigs, upsertPushConfig, type PushConfigRecord } from '../db/push-repo';
import { findTask } from '../db/task-repo';
import { A2AError } from '../protocol/errors';
import { refuseWebhookTarget } from './webhook-target';
import { pushAllowlist } from './push-allowlist';
import type { PushConfigInput } from '../server/params';
import { trackPushTask } from './push-delivery';

async function requireTask(taskId: string): Promise<void> {
  if (!(await findTask(taskId))) throw new A2AError('taskNotFound', `no task ${taskId}`);
}

export function assertWebhookAllowed(url: string): void {
  const refusal = refuseWebhookTarget(url, pushAllowlist());
  if (refusal) throw new A2AError('invalidParams', `push notification config ${refusal}`);
}

export async function setPushConfig(taskId: string, input: PushConfigInput, version: '0.3' | '1.0'): Promise<PushConfigRecord> {
  await requireTask(taskId);
  assertWebhookAllowed(input.url);
  const saved = await upsertPushConfig({
    taskId,
    id: input.id ?? (version === '0.3' ? taskId : randomUUID()),
    url: input.url,
    token: input.token ?? null,
    authentication: input.authentication ?? null,
    version,
  });
  trackPushTask(taskId);
  return saved;
}

export async function getPushConfig(taskId: string, id: string | undefined): Promise<PushConfigRecord> {
  await requireTask(taskId);
  const config = id ? await findPushConfig(taskId, id) : ((await findPushConfig(taskId, taskId)) ?? (await listPushConfigs(taskId))[0] ?? null);
  if (!config) throw new A2AError('taskNotFound', `no push notification config ${id ?? ''} for task ${taskId}`.replace('  ', ' '));
  return config;
}

export async function listTaskPushConfigs(taskId: string): Promise<PushConfigRecord[]> {
  await requireTask(taskId);
  return listPushConfigs(taskId);
}

export async function removePushConfig(taskId: string, id: string): Promise<void> {
  await requireTask(taskId);
  await deletePushConfig(taskId, id);
}
