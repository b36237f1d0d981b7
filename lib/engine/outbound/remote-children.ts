/**
 * The remote hops of the delegation tree: for an outbound task, the peer's own children of the
 * task we reached there, read with one tasks/get | GetTask that asks for them
 * (`metadata.switchboard.children`, which a Switchboard peer answers; others give none).
 */
import { findTask } from '../../db/task-repo';
import { childrenFromMetadata, CHILDREN_QUERY } from '../../protocol/trace-context';
import { errorMessage } from '../../log';
import { getTask } from '../../client/a2a-client';
import { reconnect } from '../../peers/connect';
import { readFollowState } from './follow-state';
import { resolveForTask } from './runner';

/** A page read waits at most this long for a peer. */
const HOP_TIMEOUT_MS = 3_000;

export interface RemoteChildren {
  /** The peer's state of the task we reached there. */
  state: string;
  /** Its children as the peer reported them (unvalidated: the caller parses). */
  children: unknown[];
}

/** Null when the task is no outbound task with a remote task; throws a readable error else. */
export async function readRemoteChildren(taskId: string): Promise<RemoteChildren | null> {
  const record = await findTask(taskId);
  const follow = record ? readFollowState(record) : null;
  if (!record || !follow?.version || !follow.endpoint || !record.remoteTaskId) return null;
  try {
    const conn = reconnect(await resolveForTask(follow, record), { version: follow.version, endpoint: follow.endpoint, streaming: follow.streaming ?? false });
    const task = await getTask(conn, record.remoteTaskId, { timeoutMs: Math.min(conn.timeoutMs, HOP_TIMEOUT_MS) }, CHILDREN_QUERY);
    return { state: task.status.state, children: childrenFromMetadata(task.metadata) ?? [] };
  } catch (err) {
    throw new Error(`the peer did not answer tasks/get: ${errorMessage(err)}`);
  }
}
