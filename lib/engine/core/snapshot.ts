/**
 * Builds the A2A Task (internal shape) for a stored task: status, history and the accumulated
 * artifacts (materialised once the task ended; derived from the event log while it runs).
 */
import { findTaskWithParts, listEvents, listMessages, listStoredArtifacts } from '../../db/task-repo';
import type { TaskRecord } from '../../db/task-records';
import { accumulateArtifacts } from '../../protocol/artifacts';
import type { Artifact, Message, Task } from '../../protocol/types';
import { isTerminalState } from '../../protocol/types';

export interface SnapshotOptions {
  /** undefined = full history; 0 = none; N = the N most recent messages. */
  historyLength?: number;
  includeArtifacts?: boolean;
}

/**
 * The artifacts as of the record's lastSeq: a stream sends this snapshot and then replays every
 * event after that seq, so a chunk committed meanwhile must not be in both (it would be doubled).
 */
export async function loadArtifacts(record: TaskRecord, stored?: Artifact[]) {
  if (isTerminalState(record.state)) return stored ?? listStoredArtifacts(record.id);
  const chunks = (await listEvents(record.id, 0, ['artifact'])).filter((e) => e.seq <= record.lastSeq);
  return accumulateArtifacts(chunks.flatMap((e) => (e.type === 'artifact' ? [e.payload] : [])));
}

export function switchboardMetadata(record: TaskRecord): Record<string, unknown> {
  return {
    direction: record.direction,
    detached: record.detached,
    ...(record.detachedAt ? { detachedAt: record.detachedAt } : {}),
    ...(record.endReason ? { endReason: record.endReason } : {}),
    ...(record.remoteTaskId ? { remoteTaskId: record.remoteTaskId } : {}),
    lastSeq: record.lastSeq,
    // The generation extension's name for the same counter (GENERATION_EXTENSION_URI).
    generation: record.lastSeq,
  };
}

/**
 * The facts of the task's last detach (reason, window, how to get the result), as its detached
 * event recorded them: they stay in metadata.switchboard while the status message moves on to
 * later progress. Read only for a detached task.
 */
async function detachFacts(record: TaskRecord): Promise<Record<string, unknown>> {
  if (!record.detached) return {};
  const detaches = await listEvents(record.id, 0, ['detached']);
  const last = detaches[detaches.length - 1];
  const facts = last?.type === 'detached' ? last.payload.metadata?.switchboard : undefined;
  return facts && typeof facts === 'object' ? (facts as Record<string, unknown>) : {};
}

/** What was read with the record (findTaskWithParts), so it need not be read again. */
interface ReadWith {
  history: Message[];
  storedArtifacts: Artifact[];
}

export async function buildTask(record: TaskRecord, opts: SnapshotOptions = {}, readWith?: ReadWith): Promise<Task> {
  const [history, artifacts, detach] = await Promise.all([
    opts.historyLength === 0 ? Promise.resolve([] as Message[]) : (readWith?.history ?? listMessages(record.id, opts.historyLength)),
    opts.includeArtifacts === false ? Promise.resolve([]) : loadArtifacts(record, readWith?.storedArtifacts),
    detachFacts(record),
  ]);
  const status = {
    state: record.state,
    timestamp: record.updatedAt,
    ...(record.statusMessage ? { message: record.statusMessage as Message } : {}),
  };
  return {
    kind: 'task',
    id: record.id,
    contextId: record.contextId,
    status,
    history: history.map((m) => ({ ...m, contextId: record.contextId })),
    artifacts,
    metadata: { ...(record.metadata ?? {}), switchboard: { ...detach, ...switchboardMetadata(record) } },
  };
}

/** The task as stored now; the row, its history and stored artifacts in one read (one round trip on PostgreSQL). */
export async function loadTask(taskId: string, opts: SnapshotOptions = {}): Promise<Task | null> {
  const read = await findTaskWithParts(taskId, opts.historyLength);
  return read ? buildTask(read.task, opts, read) : null;
}
