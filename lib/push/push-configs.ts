/**
 * Push-notification config operations behind the JSON-RPC methods (both versions). Each takes
 * the caller's scope: another owner's task (its configs, tokens, credentials) reads as none.
 */
import { randomUUID } from 'node:crypto';
import { countPushConfigs, deletePushConfig, findPushConfig, listPushConfigs, upsertPushConfig, type PushConfigRecord } from '../db/push-repo';
import { getSettings } from '../config/settings';
import { metrics } from '../metrics/metrics';
import { findTaskInScope } from '../db/task-repo';
import type { CallerScope } from '../db/task-scope';
import { A2AError, quotaExceeded, taskNotFound } from '../protocol/errors';
import { refuseWebhookTarget } from './webhook-target';
import { pushAllowlist } from './push-allowlist';
import { trackPushTask } from './push-delivery';
import type { ProtocolVersion } from '../protocol/types';

async function requireTask(scope: CallerScope, taskId: string): Promise<void> {
  if (!(await findTaskInScope(taskId, scope))) throw taskNotFound(taskId);
}

/** A push config as a caller sends it, either version (lib/server/params.ts reads it off the wire). */
export interface PushConfigInput {
  id?: string;
  url: string;
  token?: string;
  authentication?: { scheme: string; credentials?: string };
}

export function assertWebhookAllowed(url: string): void {
  const refusal = refuseWebhookTarget(url, pushAllowlist());
  if (refusal) throw new A2AError('invalidParams', `push notification config ${refusal}`);
}

/**
 * At most SWITCHBOARD_MAX_PUSH_CONFIGS_PER_TASK configs per task (500 on one task were
 * accepted, each a webhook POST per event). Replacing an existing id is always allowed. Waiting
 * does not help, so the refusal carries no Retry-After: the caller deletes one first.
 */
async function assertRoomForConfig(taskId: string, id: string): Promise<void> {
  const max = getSettings().maxPushConfigsPerTask;
  if ((await countPushConfigs(taskId)) < max || (await findPushConfig(taskId, id))) return;
  metrics().quotaRefusals.inc({ limit: 'push_configs' });
  throw quotaExceeded(`task ${taskId} already has ${max} push notification configs (at most ${max}, SWITCHBOARD_MAX_PUSH_CONFIGS_PER_TASK); delete one first`);
}

export async function setPushConfig(scope: CallerScope, taskId: string, input: PushConfigInput, version: ProtocolVersion): Promise<PushConfigRecord> {
  await requireTask(scope, taskId);
  assertWebhookAllowed(input.url);
  const id = input.id ?? (version === '0.3' ? taskId : randomUUID());
  await assertRoomForConfig(taskId, id);
  trackPushTask(taskId); // before the config is stored: a change committed right after it queues its delivery
  const saved = await upsertPushConfig({
    taskId,
    id,
    url: input.url,
    token: input.token ?? null,
    authentication: input.authentication ?? null,
    version,
  });
  return saved;
}

export async function getPushConfig(scope: CallerScope, taskId: string, id: string | undefined): Promise<PushConfigRecord> {
  await requireTask(scope, taskId);
  const config = id ? await findPushConfig(taskId, id) : ((await findPushConfig(taskId, taskId)) ?? (await listPushConfigs(taskId))[0] ?? null);
  if (!config) throw new A2AError('taskNotFound', `no push notification config ${id ?? ''} for task ${taskId}`.replace('  ', ' '));
  return config;
}

export async function listTaskPushConfigs(scope: CallerScope, taskId: string): Promise<PushConfigRecord[]> {
  await requireTask(scope, taskId);
  return listPushConfigs(taskId);
}

export async function removePushConfig(scope: CallerScope, taskId: string, id: string): Promise<void> {
  await requireTask(scope, taskId);
  await deletePushConfig(taskId, id);
}
