/**
 * The outbound step of the engine's one cancel (lib/engine/cancel.ts): stop following, tell the
 * peer (tasks/cancel | CancelTask), record its answer, and end the local task through the
 * terminal claim: canceled, or whatever the peer says the task really ended as (it may have
 * completed a moment before).
 */
import { findTask } from '../../db/task-repo';
import type { TaskRecord } from '../../db/task-records';
import { claimTerminal } from '../core/task-writer';
import { agentText } from '../core/messages';
import { isTerminalState, type Task } from '../../protocol/types';
import { errorMessage } from '../../log';
import { cancelTask, getTask } from '../../client/a2a-client';
import { reconnect } from '../../peers/connect';
import { claimPeerEnd } from './endings';
import { outboundFollowers } from './follow-registry';
import { readFollowState } from './follow-state';
import { RpcError } from '../../client/json-rpc';
import { openRecorder, resolveForTask } from './runner';

const TASK_NOT_CANCELABLE = -32002;

async function claimCanceled(record: TaskRecord, reason: string, detail?: string): Promise<void> {
  const text = `Task canceled: ${reason}${detail ? ` (${detail})` : ''}.`;
  await claimTerminal(record.id, { state: 'canceled', reason, message: agentText(record.id, record.contextId, text), ...(detail ? { metadata: { cancel: detail } } : {}) });
}

/** Asks the peer to cancel; returns the peer's view of the task afterwards. */
async function cancelAtPeer(record: TaskRecord): Promise<Task> {
  const follow = readFollowState(record)!;
  const conn = reconnect(await resolveForTask(follow, record), { version: follow.version!, endpoint: follow.endpoint!, streaming: follow.streaming ?? false });
  const opts = { timeoutMs: conn.timeoutMs };
  try {
    return await cancelTask(conn, record.remoteTaskId!, opts);
  } catch (err) {
    // Already ended at the peer: read how, so we record its real end.
    if (err instanceof RpcError && err.code === TASK_NOT_CANCELABLE) return getTask(conn, record.remoteTaskId!, opts);
    throw err;
  }
}

/**
 * Cancels an outbound task the engine found in scope and not yet ended. Only the engine calls
 * this: every caller goes through cancel(taskId, scope).
 */
export async function cancelOutboundAtPeer(before: TaskRecord, reason: string): Promise<void> {
  const taskId = before.id;
  await outboundFollowers().stop(taskId, reason);
  const record = (await findTask(taskId))!;
  const follow = readFollowState(record);
  if (isTerminalState(record.state)) return;
  if (!record.remoteTaskId || !follow?.version || !follow.endpoint) {
    await claimCanceled(record, reason, 'before the peer named its task; it may still receive the message');
    return;
  }
  const recorder = await openRecorder(record, follow);
  try {
    const remote = await cancelAtPeer(record);
    await recorder.recordRemote({ event: 'cancel', answer: remote.status.state });
    await recorder.reconcileArtifacts(remote.artifacts);
    if (isTerminalState(remote.status.state) && remote.status.state !== 'canceled') await claimPeerEnd(record, remote.status, remote.metadata);
    else await claimCanceled(record, reason, remote.status.state === 'canceled' ? undefined : `the peer answered ${remote.status.state}`);
  } catch (err) {
    await recorder.recordFollowError({ phase: 'cancel', error: errorMessage(err) });
    await claimCanceled(record, reason, `the peer could not be told: ${errorMessage(err)}`);
  }
}
