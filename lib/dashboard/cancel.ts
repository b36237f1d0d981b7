/**
 * Cancelling as an operator (dashboard, CLI, API, MCP): the engine's one cancel with the
 * operator's scope (every task, both directions), its A2A errors mapped to HTTP, recorded in the
 * audit log (every operator cancel comes through here).
 */
import { audited, type AuditActor } from '../audit/audit-log';
import { cancel, type CancelOrigin } from '../engine';
import { findTask } from '../db/task-repo';
import { operatorScope } from '../db/task-scope';
import { A2AError } from '../protocol/errors';
import { ClientError } from '../protocol/client-error';
import { toTaskSummary } from './task-summary';
import type { TaskSummary } from './wire';

/** The cancelled task's summary; a refusal is the one ClientError (400 parent, 404, 409 not_cancelable). */
export async function cancelAsOperator(taskId: string, actor: AuditActor, origin: CancelOrigin): Promise<TaskSummary> {
  const detail = origin.parentTaskId ? { parent: origin.parentTaskId } : undefined;
  return audited(actor, 'cancel', { target: taskId, detail }, () => cancelOrRefuse(taskId, actor.name, origin));
}

async function cancelOrRefuse(taskId: string, by: string, origin: CancelOrigin): Promise<TaskSummary> {
  try {
    await cancel(taskId, operatorScope(by), origin);
  } catch (err) {
    if (err instanceof A2AError && err.kind === 'invalidParams') throw new ClientError(400, 'invalid_request', err.message, 'parent');
    if (err instanceof A2AError && err.kind === 'taskNotCancelable') throw new ClientError(409, 'not_cancelable', err.message, 'taskId');
    if (err instanceof A2AError && err.kind === 'taskNotFound') throw new ClientError(404, 'not_found', err.message, 'taskId');
    throw err;
  }
  const after = await findTask(taskId);
  if (!after) throw new ClientError(404, 'not_found', `no task ${taskId}`, 'taskId');
  return toTaskSummary(after);
}
