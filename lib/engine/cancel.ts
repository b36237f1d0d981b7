/**
 * The one cancel, for both directions and every adapter (A2A tasks/cancel | CancelTask, the
 * operator API): `cancel(taskId, scope, origin)`. The scope decides what the caller may reach; a task
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
import { claimTerminal } from './core/task-writer';
import { executions } from './core/executions';
import { agentText } from './core/messages';
import { loadTask } from './core/snapshot';
import { requireTaskInScope } from './core/scoped-task';
import { cancelOutboundAtPeer } from './outbound/cancel';

/**
 * Which door a cancel came through, recorded in its reason (a CLI cancel once read "from the
 * dashboard"); a child cancelled along with its parent names the parent. A2A callers always come
 * through `a2a`; the operator API tells the dashboard, the CLI and other API clients apart by the
 * X-Switchboard-Client label (lib/api/client-label.ts); MCP tools come through `mcp`, and the
 * engine's own cancels (a relay's caller left) through `engine` with their reason.
 */
export type CancelDoor = 'dashboard' | 'cli' | 'api' | 'mcp' | 'a2a' | 'engine';

const DOOR_PHRASE: Record<Exclude<CancelDoor, 'a2a' | 'engine'>, string> = {
  dashboard: 'from the dashboard',
  cli: 'from the CLI',
  api: 'through the API',
  mcp: 'through MCP',
};

function reasonFor(scope: TaskScope, { door, parentTaskId, reason }: CancelOrigin): string {
  if (door === 'engine') return reason ?? 'canceled by Switchboard';
  if (scope.kind !== 'operator' || door === 'a2a') return 'canceled by the A2A caller (tasks/cancel)';
  if (parentTaskId) return `canceled by ${scope.operator} with its parent task ${parentTaskId} (${DOOR_PHRASE[door]})`;
  return `canceled by ${scope.operator} ${DOOR_PHRASE[door]}`;
}

/**
 * Which door, and the parent task when the cancel came with its parent's (operator doors only);
 * `engine` with its own `reason` when Switchboard itself cancels (a relay's caller left).
 */
export interface CancelOrigin {
  door: CancelDoor;
  parentTaskId?: string;
  reason?: string;
}

async function cancelInbound(record: TaskRecord, reason: string): Promise<void> {
  const won = await claimTerminal(record.id, {
    state: 'canceled',
    reason,
    message: agentText(record.id, record.contextId, `Task canceled: ${reason}.`),
  });
  if (won) executions().abort(record.id, reason);
}

export async function cancel(taskId: string, scope: TaskScope, origin: CancelOrigin = { door: scope.kind === 'operator' ? 'api' : 'a2a' }): Promise<Task> {
  const record = await requireTaskInScope(taskId, scope);
  if (isTerminalState(record.state)) throw new A2AError('taskNotCancelable', `task ${taskId} is already ${record.state}`);
  if (origin.parentTaskId && record.parentTaskId !== origin.parentTaskId) {
    throw new A2AError('invalidParams', `parent: task ${taskId} is not a child of task ${origin.parentTaskId}`);
  }
  const reason = reasonFor(scope, origin);
  if (record.direction === 'inbound') {
    await cancelInbound(record, reason);
  } else {
    await cancelOutboundAtPeer(record, reason);
  }
  return (await loadTask(taskId))!;
}
