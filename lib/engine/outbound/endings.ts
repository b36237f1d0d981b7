/**
 * How outbound tasks end, always through claimTerminal. Two kinds of ending
 * are kept apart in the reason: what the peer reported (`peer reported failed: <its reason>`),
 * and what happened on our side (`follow limit exceeded`, `dispatch failed: ...`).
 */
import { claimTerminal, type TerminalState } from '../core/task-writer';
import { agentText } from '../core/messages';
import type { Message, TaskStatus } from '../../protocol/types';
import type { NewEvent } from '../../db/task-records';
import { textOf } from '../../protocol/types';

export const FOLLOW_LIMIT_EXCEEDED = 'follow limit exceeded';
/** The message went out but the peer's task id never came back, and it cannot be looked up. */
export const LOST_CONTACT = 'lost contact with the peer';

/** The peer's own end reason: Switchboard metadata first, then the status message text. */
function peerDetail(status: TaskStatus, metadata?: Record<string, unknown>): string {
  const sb = metadata?.switchboard as { endReason?: unknown } | undefined;
  if (typeof sb?.endReason === 'string' && sb.endReason) return sb.endReason;
  const text = textOf(status.message?.parts).trim();
  return text ? text.slice(0, 500) : 'no reason given';
}

/** Records the end the peer reported, after `events` (chunks read with it). Returns false when the task had already ended here. */
export async function claimPeerEnd(task: { id: string; contextId: string }, status: TaskStatus, metadata?: Record<string, unknown>, events: NewEvent[] = []): Promise<boolean> {
  const state = status.state as TerminalState;
  const reason = state === 'completed' ? undefined : `peer reported ${state}: ${peerDetail(status, metadata)}`;
  const message: Message | undefined = status.message ? { ...status.message, taskId: task.id, contextId: task.contextId } : undefined;
  const won = await claimTerminal(task.id, {
    state,
    ...(message ? { message } : {}),
    ...(reason ? { reason } : {}),
    metadata: { peer: { state, ...(metadata ? { metadata } : {}) } },
    ...(events.length ? { events } : {}),
  });
  return won !== null;
}

/** Ends the task FAILED for a reason on our side, with a message saying what happened. */
export async function claimLocalFailure(task: { id: string; contextId: string }, reason: string, explanation?: string): Promise<boolean> {
  const text = `Task failed: ${reason}${explanation ? ` (${explanation})` : ''}.`;
  const won = await claimTerminal(task.id, { state: 'failed', reason, message: agentText(task.id, task.contextId, text) });
  return won !== null;
}

/** A peer answered with a message and no task: the turn is complete, the message is the result. */
export async function claimMessageReply(task: { id: string; contextId: string }, reply: Message): Promise<boolean> {
  const message = { ...reply, taskId: task.id, contextId: task.contextId };
  const won = await claimTerminal(task.id, {
    state: 'completed',
    message,
    metadata: { peer: { reply: 'message' } },
    events: [{ type: 'message', payload: { message, remote: true } }],
  });
  return won !== null;
}
