/**
 * A2A v1.0 JSON (ProtoJSON) ⇄ internal shapes. v1.0 drops `kind`, wraps stream events as
 * {task}|{message}|{statusUpdate}|{artifactUpdate}, names states TASK_STATE_* and roles ROLE_*,
 * and flattens parts to {text}|{raw}|{url}|{data} (the A2A specification).
 */
import type { Artifact, Message, Part, StreamEvent, Task, TaskState, TaskStatus } from './types';
import { isTerminalState } from './types';

export type Json = Record<string, unknown>;

const STATE_TO_V10: Record<TaskState, string> = {
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  'auth-required': 'TASK_STATE_AUTH_REQUIRED',
  completed: 'TASK_STATE_COMPLETED',
  canceled: 'TASK_STATE_CANCELED',
  failed: 'TASK_STATE_FAILED',
  rejected: 'TASK_STATE_REJECTED',
  unknown: 'TASK_STATE_UNSPECIFIED',
};
const STATE_FROM_V10 = Object.fromEntries(Object.entries(STATE_TO_V10).map(([k, v]) => [v, k])) as Record<string, TaskState>;

export const stateToV10 = (s: TaskState): string => STATE_TO_V10[s];
export const stateFromV10 = (s: string): TaskState => STATE_FROM_V10[s] ?? 'unknown';

const withMeta = (metadata: Record<string, unknown> | undefined) => (metadata ? { metadata } : {});

export function partToV10(part: Part): Json {
  switch (part.kind) {
    case 'text':
      return { text: part.text, ...withMeta(part.metadata) };
    case 'data':
      return { data: part.data, mediaType: 'application/json', ...withMeta(part.metadata) };
    case 'file': {
      const names = {
        ...(part.file.name ? { filename: part.file.name } : {}),
        ...(part.file.mimeType ? { mediaType: part.file.mimeType } : {}),
      };
      return part.file.bytes !== undefined
        ? { raw: part.file.bytes, ...names, ...withMeta(part.metadata) }
        : { url: part.file.uri, ...names, ...withMeta(part.metadata) };
    }
  }
}

export function partFromV10(p: Json): Part {
  const metadata = p.metadata as Record<string, unknown> | undefined;
  // A text part first, before the file fields are gathered: a relayed stream converts thousands.
  if (typeof p.text === 'string') return metadata ? { kind: 'text', text: p.text, metadata } : { kind: 'text', text: p.text };
  const file = {
    ...(typeof p.filename === 'string' ? { name: p.filename } : {}),
    ...(typeof p.mediaType === 'string' ? { mimeType: p.mediaType } : {}),
  };
  if (typeof p.raw === 'string') return { kind: 'file', file: { bytes: p.raw, ...file }, ...withMeta(metadata) };
  if (typeof p.url === 'string') return { kind: 'file', file: { uri: p.url, ...file }, ...withMeta(metadata) };
  const data = p.data;
  return { kind: 'data', data: data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : { value: data }, ...withMeta(metadata) };
}

export function messageToV10(m: Message): Json {
  return {
    messageId: m.messageId,
    role: m.role === 'agent' ? 'ROLE_AGENT' : 'ROLE_USER',
    parts: m.parts.map(partToV10),
    ...(m.taskId ? { taskId: m.taskId } : {}),
    ...(m.contextId ? { contextId: m.contextId } : {}),
    ...(m.referenceTaskIds?.length ? { referenceTaskIds: m.referenceTaskIds } : {}),
    ...(m.extensions?.length ? { extensions: m.extensions } : {}),
    ...withMeta(m.metadata),
  };
}

export function messageFromV10(m: Json): Message {
  return {
    kind: 'message',
    messageId: String(m.messageId),
    role: m.role === 'ROLE_AGENT' ? 'agent' : 'user',
    parts: ((m.parts as Json[]) ?? []).map(partFromV10),
    ...(typeof m.taskId === 'string' && m.taskId ? { taskId: m.taskId } : {}),
    ...(typeof m.contextId === 'string' && m.contextId ? { contextId: m.contextId } : {}),
    ...(Array.isArray(m.referenceTaskIds) ? { referenceTaskIds: m.referenceTaskIds as string[] } : {}),
    ...(Array.isArray(m.extensions) ? { extensions: m.extensions as string[] } : {}),
    ...withMeta(m.metadata as Record<string, unknown> | undefined),
  };
}

export function artifactToV10(a: Artifact): Json {
  return {
    artifactId: a.artifactId,
    ...(a.name ? { name: a.name } : {}),
    ...(a.description ? { description: a.description } : {}),
    parts: a.parts.map(partToV10),
    ...withMeta(a.metadata),
    ...(a.extensions?.length ? { extensions: a.extensions } : {}),
  };
}

export function artifactFromV10(a: Json): Artifact {
  return {
    artifactId: String(a.artifactId),
    ...(typeof a.name === 'string' ? { name: a.name } : {}),
    ...(typeof a.description === 'string' ? { description: a.description } : {}),
    parts: ((a.parts as Json[]) ?? []).map(partFromV10),
    ...withMeta(a.metadata as Record<string, unknown> | undefined),
  };
}

export function statusToV10(s: TaskStatus): Json {
  return {
    state: stateToV10(s.state),
    ...(s.message ? { message: messageToV10(s.message) } : {}),
    ...(s.timestamp ? { timestamp: s.timestamp } : {}),
  };
}

export function statusFromV10(s: Json): TaskStatus {
  return {
    state: stateFromV10(String(s.state)),
    ...(s.message ? { message: messageFromV10(s.message as Json) } : {}),
    ...(typeof s.timestamp === 'string' ? { timestamp: s.timestamp } : {}),
  };
}

export function taskToV10(t: Task): Json {
  return {
    id: t.id,
    contextId: t.contextId,
    status: statusToV10(t.status),
    artifacts: (t.artifacts ?? []).map(artifactToV10),
    history: (t.history ?? []).map(messageToV10),
    ...withMeta(t.metadata),
  };
}

export function taskFromV10(t: Json): Task {
  return {
    kind: 'task',
    id: String(t.id),
    contextId: String(t.contextId ?? ''),
    status: statusFromV10((t.status as Json) ?? { state: 'TASK_STATE_UNSPECIFIED' }),
    artifacts: ((t.artifacts as Json[]) ?? []).map(artifactFromV10),
    history: ((t.history as Json[]) ?? []).map(messageFromV10),
    ...withMeta(t.metadata as Record<string, unknown> | undefined),
  };
}

/** A StreamResponse (also the SendMessage result: {task} or {message}). */
export function streamEventToV10(e: StreamEvent): Json {
  switch (e.kind) {
    case 'task':
      return { task: taskToV10(e) };
    case 'message':
      return { message: messageToV10(e) };
    case 'status-update':
      return { statusUpdate: { taskId: e.taskId, contextId: e.contextId, status: statusToV10(e.status), ...withMeta(e.metadata) } };
    case 'artifact-update':
      return {
        artifactUpdate: {
          taskId: e.taskId,
          contextId: e.contextId,
          artifact: artifactToV10(e.artifact),
          append: e.append ?? false,
          lastChunk: e.lastChunk ?? false,
          ...withMeta(e.metadata),
        },
      };
  }
}

export function streamEventFromV10(r: Json): StreamEvent | null {
  if (r.task) return taskFromV10(r.task as Json);
  if (r.message) return messageFromV10(r.message as Json);
  if (r.statusUpdate) {
    const u = r.statusUpdate as Json;
    const status = statusFromV10(u.status as Json);
    return {
      kind: 'status-update',
      taskId: String(u.taskId),
      contextId: String(u.contextId ?? ''),
      status,
      final: isTerminalState(status.state),
      ...withMeta(u.metadata as Record<string, unknown> | undefined),
    };
  }
  if (r.artifactUpdate) {
    const u = r.artifactUpdate as Json;
    return {
      kind: 'artifact-update',
      taskId: String(u.taskId),
      contextId: String(u.contextId ?? ''),
      artifact: artifactFromV10(u.artifact as Json),
      append: u.append === true,
      lastChunk: u.lastChunk === true,
    };
  }
  return null;
}
