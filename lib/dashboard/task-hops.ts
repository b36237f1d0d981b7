/**
 * The remote hops under a task for its page (GET /api/tasks/:id/hops): each outbound child that
 * reached a peer task, read at the peer (lib/engine/outbound/remote-children.ts), in parallel. Bounded:
 * the first MAX_HOPS such children, MAX_REMOTE_CHILDREN reported children each, and what a
 * peer reports is validated before it is passed on.
 */
import { listChildTasks } from '../db/task-graph';
import { readRemoteChildren } from '../engine';
import { errorMessage } from '../log';
import { ChildTaskSchema, type ChildTask, type RemoteHop, type TaskHops } from './wire';

const MAX_HOPS = 20;
const MAX_REMOTE_CHILDREN = 50;

const validChildren = (reported: unknown[]): ChildTask[] =>
  reported.slice(0, MAX_REMOTE_CHILDREN).flatMap((c) => {
    const parsed = ChildTaskSchema.safeParse(c);
    return parsed.success ? [parsed.data] : [];
  });

async function hopOf(child: ChildTask & { remoteTaskId: string }): Promise<RemoteHop | null> {
  try {
    const remote = await readRemoteChildren(child.id);
    return remote && { taskId: child.id, remoteTaskId: child.remoteTaskId, state: remote.state, children: validChildren(remote.children), error: null };
  } catch (err) {
    return { taskId: child.id, remoteTaskId: child.remoteTaskId, state: null, children: [], error: errorMessage(err) };
  }
}

export async function loadTaskHops(taskId: string): Promise<TaskHops> {
  const outbound = (await listChildTasks(taskId)).filter((c): c is ChildTask & { remoteTaskId: string } => c.direction === 'outbound' && c.remoteTaskId !== null).slice(0, MAX_HOPS);
  const hops = await Promise.all(outbound.map(hopOf));
  return { hops: hops.filter((h): h is RemoteHop => h !== null) };
}
