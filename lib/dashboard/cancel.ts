/**
 * Cancelling as an operator (dashboard, CLI, API, MCP): the engine's one cancel with the
 * operator's scope (every task, both directions), its A2A errors mapped to HTTP, recorded in the
 * audit log (every operator cancel comes through here).
 */
import { audited, type AuditActor } from '../audit/audit-log';
import { cancel, type CancelOrigin } from '../engine/cancel';
import { findTask } from '../db/task-repo';
import { operatorScope } from '../db/task-scope';
import { A2AError } from '../protocol/errors';
import { toTaskSummary } from './task-summary';
import type { TaskSummary } from './wire';

export type CancelResult =
  | { ok: true; task: TaskSummary }
  | { ok: false; status: 400 | 404 | 409; code: 'invalid_request' | 'not_found' | 'not_cancelable'; message: string; field?: string };

export async function cancelAsOperator(taskId: string, actor: AuditActor, origin: CancelOrigin): Promise<CancelResult> {
  const detail = origin.parentTaskId ? { parent: origin.parentTaskId } : undefined;
  return audited(actor, 'cancel', { target: taskId, detail }, () => cancelOrRefuse(taskId, actor.name, origin), (r) => (r.ok ? {} : { refusal: r.code }));
}

async function cancelOrRefuse(taskId: string, by: string, origin: CancelOrigin): Promise<CancelResult> {
  try {
    await cancel(taskId, operatorScope(by), origin);
  } catch (err) {
    if (err instanceof A2AError && err.kind === 'invalidParams') return { ok: false, status: 400, code: 'invalid_request', message: err.message, field: 'parent' };
    if (err instanceof A2AError && err.kind === 'taskNotCancelable') return { ok: false, status: 409, code: 'not_cancelable', message: err.message };
    if (err instanceof A2AError && err.kind === 'taskNotFound') return { ok: false, status: 404, code: 'not_found', message: err.message };
    throw err;
  }
  const after = await findTask(taskId);
  if (!after) return { ok: false, status: 404, code: 'not_found', message: `no task ${taskId}` };
  return { ok: true, task: toTaskSummary(after) };
}
