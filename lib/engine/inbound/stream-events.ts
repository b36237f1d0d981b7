/**
 * Maps stored events to the A2A stream events a subscriber receives (internal v0.3 shape).
 * Events that are bookkeeping only (submitted, message, reattached...) produce nothing.
 */
import type { StoredEvent } from '../../db/task-records';
import type { StreamEvent } from '../../protocol/types';
import { isTerminalState, isTurnEndState } from '../../protocol/types';

/**
 * Where a stream ends, which is what v0.3's `final` marks: a send's stream at the turn's end
 * (input-required included), a subscription only at a terminal state (v1.0 §3.1.6).
 */
export type StreamEnd = 'turn' | 'terminal';

/**
 * The event's generation (its seq in the task's log) in `metadata.switchboard.generation`, beside
 * whatever metadata it carries: the Switchboard generation extension (GENERATION_EXTENSION_URI).
 */
function withGeneration(metadata: Record<string, unknown> | null | undefined, seq: number): Record<string, unknown> {
  const own = metadata?.switchboard;
  return { ...metadata, switchboard: { ...(own && typeof own === 'object' ? own : {}), generation: seq } };
}

export function toStreamEvent(event: StoredEvent, contextId: string, endsAt: StreamEnd = 'turn'): StreamEvent | null {
  const taskId = event.taskId;
  if (event.type === 'status' || event.type === 'detached') {
    const payload = event.payload;
    const state = event.state ?? 'working';
    return {
      kind: 'status-update',
      taskId,
      contextId,
      status: { state, timestamp: event.at, ...(payload.message ? { message: payload.message } : {}) },
      final: event.type === 'status' && (endsAt === 'turn' ? isTurnEndState(state) : isTerminalState(state)),
      metadata: withGeneration(payload.metadata, event.seq),
    };
  }
  if (event.type === 'artifact') {
    const chunk = event.payload;
    return {
      kind: 'artifact-update',
      taskId,
      contextId,
      artifact: chunk.artifact,
      ...(chunk.append !== undefined ? { append: chunk.append } : {}),
      ...(chunk.lastChunk !== undefined ? { lastChunk: chunk.lastChunk } : {}),
      metadata: withGeneration(undefined, event.seq),
    };
  }
  return null;
}
