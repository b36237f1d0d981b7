/**
 * A turn that ended with a direct message (TurnOutcome `message`): its terminal status event is
 * marked `reply: "message"`. A caller still waiting on the send that created the task receives
 * that Message instead of the Task (A2A allows either); the record stays a completed task.
 */
import type { StoredEvent } from '../../db/task-records';
import type { Message } from '../../protocol/types';

interface ReplyPayload {
  reply?: string;
  message?: Message;
}

/** The direct reply among these events, as the caller gets it, or null. */
export function directReplyIn(events: readonly StoredEvent[], contextId: string): Message | null {
  for (const event of events) {
    const payload = (event.payload ?? {}) as ReplyPayload;
    if (event.type === 'status' && payload.reply === 'message' && payload.message) return asCallerMessage(payload.message, contextId);
  }
  return null;
}

/** No taskId: the caller was given no task to refer to; the context goes on. */
function asCallerMessage(message: Message, contextId: string): Message {
  const { taskId: _taskId, ...rest } = message;
  return { ...rest, contextId };
}
