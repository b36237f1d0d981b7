/**
 * A2A v0.3 JSON ⇄ internal shapes. Our internal model is v0.3-shaped, so this is mostly
 * normalisation of what peers send (`kind` may be missing: on messages per the spec examples,
 * and on every result from some peers).
 */
import type { Artifact, Message, Part, StreamEvent, Task } from './types';
import { isTerminalState } from './types';

type Json = Record<string, unknown>;

export function partFromV03(p: Json): Part {
  if (p.kind === 'file' || p.file) return { kind: 'file', file: (p.file as Part & { kind: 'file' })['file'] ?? {}, ...(p.metadata ? { metadata: p.metadata as Json } : {}) };
  if (p.kind === 'data' || p.data) return { kind: 'data', data: (p.data as Json) ?? {}, ...(p.metadata ? { metadata: p.metadata as Json } : {}) };
  return { kind: 'text', text: String(p.text ?? ''), ...(p.metadata ? { metadata: p.metadata as Json } : {}) };
}

export function messageFromV03(m: Json): Message {
  return { ...(m as unknown as Message), kind: 'message', parts: ((m.parts as Json[]) ?? []).map(partFromV03) };
}

function artifactFromV03(a: Json): Artifact {
  return { ...(a as unknown as Artifact), parts: ((a.parts as Json[]) ?? []).map(partFromV03) };
}

export function taskFromV03(t: Json): Task {
  const task = t as unknown as Task;
  return {
    ...task,
    kind: 'task',
    status: { ...task.status, ...(task.status?.message ? { message: messageFromV03(task.status.message as unknown as Json) } : {}) },
    artifacts: ((t.artifacts as Json[]) ?? []).map(artifactFromV03),
    history: ((t.history as Json[]) ?? []).map(messageFromV03),
  };
}

/**
 * The event's kind. Some peers (VoltAgent) leave `kind` out of results; the shape then tells:
 * an update names its `taskId`, a task has an `id` and a `status`, a message its `messageId`.
 */
function kindOf(e: Json): unknown {
  if (e.kind !== undefined) return e.kind;
  if (typeof e.taskId === 'string' && e.artifact) return 'artifact-update';
  if (typeof e.taskId === 'string' && e.status) return 'status-update';
  if (typeof e.id === 'string' && e.status) return 'task';
  if (typeof e.messageId === 'string' && Array.isArray(e.parts)) return 'message';
  return undefined;
}

/** A v0.3 result (send answer or stream event) in internal form; null when it is none of them. */
export function streamEventFromV03(e: Json): StreamEvent | null {
  switch (kindOf(e)) {
    case 'task':
      return taskFromV03(e);
    case 'message':
      return messageFromV03(e);
    case 'status-update': {
      const status = e.status as Task['status'];
      return {
        ...(e as unknown as StreamEvent & { kind: 'status-update' }),
        kind: 'status-update',
        status: { ...status, ...(status?.message ? { message: messageFromV03(status.message as unknown as Json) } : {}) },
        final: e.final === true || isTerminalState(String(status?.state)),
      };
    }
    case 'artifact-update':
      return { ...(e as unknown as StreamEvent & { kind: 'artifact-update' }), kind: 'artifact-update', artifact: artifactFromV03(e.artifact as Json) };
    default:
      return null;
  }
}
