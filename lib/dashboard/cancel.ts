/**
 * Cancelling from the dashboard. An inbound task ends through the engine's terminal claim; an
 * outbound one is cancelled at the peer by lib/client, which records the outcome the same way.
 */
import { findTask } from '../db/task-repo';
import { cancelTask } from '../engine/inbound';
import { cancelOutboundTask } from '../client';
import { A2AError } from '../protocol/errors';
import { isTerminalState } from '../protocol/types';
import { toTaskSummary } from './task-summary';
import type { TaskSummary } from './wire';

export type CancelResult =
  | { ok: true; task: TaskSummary }
  | { ok: false; status: 404 | 409; code: 'not_found' | 'not_cancelable'; message: string };

export async function cancelFromDashboard(taskId: string, by: string): Promise<CancelResult> {
  const record = await findTask(taskId);
  if (!record) return { ok: false, status: 404, code: 'not_found', message: `no task ${taskId}` };
  if (isTerminalState(record.state)) {
    return { ok: false, status: 409, code: 'not_cancelable', message: `task ${taskId} is already ${record.state}` };
  }
  try {
    const reason = `canceled by ${by} from the dashboard`;
    if (record.direction === 'inbound') await cancelTask(taskId, reason);
    else await cancelOutboundTask(taskId, reason);
  } catch (err) {
    if (err instanceof A2AError && err.kind === 'taskNotCancelable') {
      return { ok: false, status: 409, code: 'not_cancelable', message: err.message };
    }
    if (err instanceof A2AError && err.kind === 'taskNotFound') return { ok: false, status: 404, code: 'not_found', message: err.message };
    throw err;
  }
  const after = await findTask(taskId);
  return { ok: true, task: toTaskSummary(after ?? record) };
}
