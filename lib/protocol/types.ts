/**
 * Switchboard's internal A2A model. It follows the v0.3 JSON shapes (lowercase states, `kind`
 * discriminators) because they are a superset of what both wire versions carry; lib/protocol/v03.ts
 * and lib/protocol/v10.ts translate at the edge. Client-safe: no server imports.
 */
export const TASK_STATES = [
  'submitted',
  'working',
  'input-required',
  'auth-required',
  'completed',
  'canceled',
  'failed',
  'rejected',
  'unknown',
] as const;
export type TaskState = (typeof TASK_STATES)[number];

/** The A2A protocol versions spoken, in and out. */
export const PROTOCOL_VERSIONS = ['0.3', '1.0'] as const;
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];

export const TERMINAL_STATES = ['completed', 'canceled', 'failed', 'rejected'] as const satisfies readonly TaskState[];
export type TerminalState = (typeof TERMINAL_STATES)[number];
export const INTERRUPTED_STATES: readonly TaskState[] = ['input-required', 'auth-required'];
/** Every state a task has not ended in (running, waiting, or unknown). */
export const OPEN_STATES: readonly TaskState[] = TASK_STATES.filter((s) => !(TERMINAL_STATES as readonly string[]).includes(s));

export function isTerminalState(state: string): boolean {
  return (TERMINAL_STATES as readonly string[]).includes(state);
}

/** A state where the current turn is over: terminal, or waiting for the caller. */
export function isTurnEndState(state: string): boolean {
  return isTerminalState(state) || (INTERRUPTED_STATES as readonly string[]).includes(state);
}

export type TextPart = { kind: 'text'; text: string; metadata?: Record<string, unknown> };
export type FilePart = {
  kind: 'file';
  file: { bytes?: string; uri?: string; name?: string; mimeType?: string };
  metadata?: Record<string, unknown>;
};
export type DataPart = { kind: 'data'; data: Record<string, unknown>; metadata?: Record<string, unknown> };
export type Part = TextPart | FilePart | DataPart;

export type Role = 'user' | 'agent';

export interface Message {
  kind: 'message';
  messageId: string;
  role: Role;
  parts: Part[];
  taskId?: string;
  contextId?: string;
  referenceTaskIds?: string[];
  extensions?: string[];
  metadata?: Record<string, unknown>;
}

export interface Artifact {
  artifactId: string;
  name?: string;
  description?: string;
  parts: Part[];
  metadata?: Record<string, unknown>;
  extensions?: string[];
}

/** One artifact update as an agent emits it (A2A TaskArtifactUpdateEvent, without ids). */
export interface ArtifactChunk {
  artifact: Artifact;
  append?: boolean;
  lastChunk?: boolean;
  /**
   * Switchboard's own (never sent to A2A clients): drop every artifact accumulated before this
   * chunk. An outbound task records the peer's final artifacts this way.
   */
  replaceAll?: boolean;
}

export interface TaskStatus {
  state: TaskState;
  message?: Message;
  timestamp?: string;
}

export interface Task {
  kind: 'task';
  id: string;
  contextId: string;
  status: TaskStatus;
  history?: Message[];
  artifacts?: Artifact[];
  metadata?: Record<string, unknown>;
}

export interface StatusUpdateEvent {
  kind: 'status-update';
  taskId: string;
  contextId: string;
  status: TaskStatus;
  final: boolean;
  metadata?: Record<string, unknown>;
}

export interface ArtifactUpdateEvent {
  kind: 'artifact-update';
  taskId: string;
  contextId: string;
  artifact: Artifact;
  append?: boolean;
  lastChunk?: boolean;
  metadata?: Record<string, unknown>;
}

/** What a stream carries, in internal (v0.3-shaped) form. */
export type StreamEvent = Task | Message | StatusUpdateEvent | ArtifactUpdateEvent;

export function textOf(parts: readonly Part[] | undefined): string {
  if (!parts) return '';
  return parts
    .filter((p): p is TextPart => p.kind === 'text')
    .map((p) => p.text)
    .join('');
}
