import { randomUUID } from 'node:crypto';
import type { Message, Part } from '../../protocol/types';

export function agentMessage(taskId: string, contextId: string, parts: Part[], metadata?: Record<string, unknown>): Message {
  return {
    kind: 'message',
    messageId: randomUUID(),
    role: 'agent',
    parts,
    taskId,
    contextId,
    ...(metadata ? { metadata } : {}),
  };
}

export function agentText(taskId: string, contextId: string, text: string, metadata?: Record<string, unknown>): Message {
  return agentMessage(taskId, contextId, [{ kind: 'text', text }], metadata);
}
