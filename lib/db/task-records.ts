/**
 * Plain record types that cross the lib/db boundary. Callers never see Prisma types.
 */
import type { TaskEventBody } from '../protocol/task-events';
import type { TaskState } from '../protocol/types';
import type { TraceContext } from '../protocol/trace-context';

export type Direction = 'inbound' | 'outbound';

export { EVENT_TYPES, type EventType } from '../protocol/task-events';

/** An event to append: its type and payload (one shape per type, lib/protocol/task-events.ts). */
export type NewEvent = TaskEventBody & { state?: TaskState };

export type StoredEvent = TaskEventBody & {
  taskId: string;
  seq: number;
  state: TaskState | null;
  at: string;
};

export interface TaskRecord {
  id: string;
  contextId: string;
  direction: Direction;
  agentSlug: string | null;
  peerName: string | null;
  peerUrl: string | null;
  remoteTaskId: string | null;
  /** Inbound: the creating API key's id, "anonymous" (open mode) or "self"; null for outbound. */
  owner: string | null;
  /** Inbound: the owner's name when the task was created (the key's name). */
  ownerName: string | null;
  state: TaskState;
  statusMessage: unknown | null;
  requestText: string;
  resultText: string;
  detached: boolean;
  detachedAt: string | null;
  endReason: string | null;
  lastSeq: number;
  metadata: Record<string, unknown> | null;
  follow: Record<string, unknown> | null;
  /** W3C trace context ({traceparent, tracestate}) of the task, when known. */
  traceContext: TraceContext | null;
  /** The parent in the delegation graph (see docs/observability.md). */
  parentTaskId: string | null;
  createdAt: string;
  updatedAt: string;
  endedAt: string | null;
}

export interface NewTask {
  id: string;
  contextId: string;
  direction: Direction;
  agentSlug?: string;
  peerName?: string;
  peerUrl?: string;
  owner?: string;
  ownerName?: string;
  /**
   * The caller chose contextId: insert only if the context holds no task of another owner or
   * agent (checked in the insert's transaction, so two callers cannot both claim a new one).
   */
  joinsContext?: boolean;
  state: TaskState;
  requestText: string;
  metadata?: Record<string, unknown>;
  follow?: Record<string, unknown>;
  traceContext?: TraceContext;
  parentTaskId?: string;
}

/** Fields an event batch may change on the task row. */
export interface TaskPatch {
  state?: TaskState;
  statusMessage?: unknown;
  detached?: boolean;
  detachedAt?: Date;
  endReason?: string | null;
  resultText?: string;
  remoteTaskId?: string;
  peerUrl?: string;
  metadata?: Record<string, unknown>;
  follow?: Record<string, unknown> | null;
  endedAt?: Date;
}

/** insertTask refused a `joinsContext` task: the context belongs to another owner or agent. */
export class ContextTakenError extends Error {
  readonly code = 'CONTEXT_TAKEN';
  constructor(readonly contextId: string) {
    super(`context ${contextId} belongs to another owner`);
  }
}

/**
 * By its code, not `instanceof`: the writer is a process singleton, and the bundle that created
 * it may hold its own copy of this class (each route bundle can), so the class may differ.
 */
export function isContextTaken(err: unknown): err is ContextTakenError {
  return err instanceof Error && (err as { code?: unknown }).code === 'CONTEXT_TAKEN';
}

/**
 * The one place a stored event row becomes a typed event. Every row was written from a
 * `NewEvent` (typed by the same union), so its JSON has the shape its type names.
 */
export function toStoredEvent(taskId: string, row: { seq: number; type: string; state: string | null; at: string }, payload: unknown): StoredEvent {
  return { taskId, seq: row.seq, type: row.type, state: row.state, payload, at: row.at } as StoredEvent;
}
