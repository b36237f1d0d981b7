/**
 * The prompt frame: what a worker (rpc) or a CLI reading `stdin: "json"` (process) gets for a
 * turn. Additive over switchboard.worker/1's first version (taskId … parts), so older workers
 * keep working: the whole message (id, metadata, referenceTaskIds), the turn number, and the
 * conversation so far within the agent's history bounds (docs/worker-protocol.md).
 */
import type { AgentTurn } from '../agent-runner';
import { textOf } from '../protocol/types';
import type { PromptFrame } from './rpc/frames';

export interface HistoryBounds {
  historyMaxItems: number;
  historyMaxBytes: number;
}

/** `delegation`: the turn's dispatch variables (rpc workers get them here, not in their environment). */
export async function buildPromptFrame(turn: AgentTurn, agent: string, bounds: HistoryBounds, delegation?: Record<string, string>): Promise<PromptFrame> {
  const message = turn.message;
  const conversation = await turn.conversation({ maxItems: bounds.historyMaxItems, maxBytes: bounds.historyMaxBytes });
  return {
    type: 'prompt',
    taskId: turn.taskId,
    contextId: turn.contextId,
    agent,
    peer: turn.peer,
    text: textOf(message.parts),
    parts: message.parts,
    messageId: message.messageId,
    ...(message.metadata ? { metadata: message.metadata } : {}),
    ...(message.referenceTaskIds?.length ? { referenceTaskIds: message.referenceTaskIds } : {}),
    turn: turn.turnNumber,
    history: conversation.messages,
    artifacts: conversation.artifacts,
    historyTruncated: conversation.truncated,
    ...(delegation && Object.keys(delegation).length ? { delegation } : {}),
  };
}

/**
 * The frame as one line within `maxBytes`, dropping the oldest history (messages, then
 * artifacts) until it fits; null if even the bare prompt does not fit.
 */
export function fitFrameLine(frame: PromptFrame, maxBytes: number): string | null {
  const fitted = { ...frame, history: [...frame.history], artifacts: [...frame.artifacts] };
  for (;;) {
    const line = `${JSON.stringify(fitted)}\n`;
    let over = Buffer.byteLength(line) - maxBytes;
    if (over <= 0) return line;
    if (!fitted.history.length && !fitted.artifacts.length) return null;
    fitted.historyTruncated = true;
    // Drop at least as many bytes as we are over (an item and its comma), then measure again.
    while (over > 0 && (fitted.history.length || fitted.artifacts.length)) {
      const dropped = fitted.history.length ? fitted.history.shift() : fitted.artifacts.shift();
      over -= Buffer.byteLength(JSON.stringify(dropped)) + 1;
    }
  }
}
