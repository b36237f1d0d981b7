/**
 * The one cancel, for both directions and every adapter (A2A tasks/cancel | CancelTask, the
 * dashboard API): `cancel(taskId, scope)`. The scope decides what the caller may reach; a task
 * outside it is -32001, as if it did not exist. A task that already ended is -32002. A cancel
 * that loses the terminal claim to a simultaneous ending answers with the task as it ended.
 *
 * Inbound: the claim, then the running turn is aborted. Outbound: stop following, tell the peer
 * and record its answer (outbound/cancel.ts).
 */
import type { TaskRecord } from '../db/task-records';
import type { TaskScope } from '../db/task-scope';
import { A2AError } from '../protocol/errors';
import { isTerminalState, type Task } from '../protocol/types';
import { claimTerminal } from './task-writer';
import { executions } from './executions';
import { agentText } from './messages';
import { loadTask } from './snapshot';
import { requireTaskInScope } from './scoped-task';
import { cancelOutboundAtPeer } from './outbound/cancel';

function reasonFor(scope: TaskScope): string {
  return scope.kind === 'operator' ? `canceled by ${scope.operator} from the dashboard` : 'canceled by request';
}

async function cancelInbound(record: TaskRecord, reason: string): Promise<void> {
  const won = await claimTerminal(record.id, {
    state: 'canceled',
    reason,
    message: agentText(record.id, record.contextId, `Task canceled: ${reason}.`),
  });
  if (won) executions().abort(record.id, reason);
}

/** `reason` names why the engine itself cancels (a relay's caller left); callers get reasonFor. */
export async function cancel(taskId: string, scope: TaskScope, reason = reasonFor(scope)): Promise<Task> {
  const record = await requireTaskInScope(taskId, scope);
  if (isTerminalState(record.state)) throw new A2AError('taskNotCancelable', `task ${taskId} is already ${record.state}`);
  if (record.direction === 'inbound') {
    await cancelInbound(record, reason);
  } else {
    await cancelOutboundAtPeer(record, reason);
  }
  return (await loadTask(taskId))!;
}
