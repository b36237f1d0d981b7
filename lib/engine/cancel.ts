/**
 * The one cancel, for both directions and every adapter (A2A tasks/cancel | CancelTask, the
 * dashboard API): `cancel(taskId, scope)`. The scope decides what the caller may reach; a task
 * outside it is -32001, as if it did not exist. A task that already ended is -32002. A cancel
 * that loses the terminal claim to a simultaneous ending answers with the task as it ended.
 *
 * Inbound: the claim, then the running turn is aborted. Outbound: the peer must be told, which
 * is the outbound client's job (lib/client); it registers that step at start-up
 * (setOutboundCancel), so the engine does not import the layer above it.
 */
import type { TaskRecord } from '../db/task-records';
import type { TaskScope } from '../db/task-scope';
import { A2AError } from '../protocol/errors';
import { isTerminalState, type Task } from '../protocol/types';
import { processSingleton } from '../process-singleton';
import { claimTerminal } from './task-writer';
import { executions } from './executions';
import { agentText } from './messages';
import { loadTask } from './snapshot';
import { requireTaskInScope } from './scoped-task';

/** Stops following an outbound task, tells the peer, and ends the local task by the claim. */
export type OutboundCancel = (record: TaskRecord, reason: string) => Promise<void>;

const outboundCancel = () => processSingleton<{ run?: OutboundCancel }>('outbound-cancel', () => ({}));

export function setOutboundCancel(run: OutboundCancel): void {
  outboundCancel().run = run;
}

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

export async function cancel(taskId: string, scope: TaskScope): Promise<Task> {
  const record = await requireTaskInScope(taskId, scope);
  if (isTerminalState(record.state)) throw new A2AError('taskNotCancelable', `task ${taskId} is already ${record.state}`);
  const reason = reasonFor(scope);
  if (record.direction === 'inbound') {
    await cancelInbound(record, reason);
  } else {
    const run = outboundCancel().run;
    if (!run) throw new Error('outbound cancel is not wired (setOutboundCancel at start-up)');
    await run(record, reason);
  }
  return (await loadTask(taskId))!;
}
