/**
 * Reads for a turn's conversation (lib/engine/inbound/conversation.ts): the tasks of one agent in one
 * context and their messages, newest first and bounded, so a long context costs a bounded read.
 */
import { db } from './client';
import type { Message, TaskState } from '../protocol/types';

export interface ContextTaskRow {
  id: string;
  state: TaskState;
}

/** This agent's inbound tasks of this owner in the context, newest first, at most `limit`. */
export async function listContextTasks(contextId: string, agentSlug: string, owner: string, limit: number): Promise<ContextTaskRow[]> {
  const rows = await db().task.findMany({
    where: { contextId, direction: 'inbound', agentSlug, owner },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit,
    select: { id: true, state: true },
  });
  return rows.map((r) => ({ id: r.id, state: r.state as TaskState }));
}

/** The messages of these tasks, newest first, at most `limit`, each with its taskId. */
export async function listMessagesOfTasks(taskIds: string[], limit: number): Promise<Message[]> {
  const rows = await db().message.findMany({
    where: { taskId: { in: taskIds } },
    orderBy: { id: 'desc' },
    take: limit,
  });
  return rows.map((r) => ({
    kind: 'message' as const,
    messageId: r.messageId,
    role: r.role as Message['role'],
    parts: JSON.parse(r.parts),
    taskId: r.taskId,
    ...(r.metadata ? { metadata: JSON.parse(r.metadata) } : {}),
  }));
}
