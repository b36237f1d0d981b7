/** The one scoped task lookup of the engine's adapters (A2A handler, dashboard API). */
import { findTaskInScope } from '../../db/task-repo';
import type { TaskRecord } from '../../db/task-records';
import type { TaskScope } from '../../db/task-scope';
import { taskNotFound } from '../../protocol/errors';

/** The task if `scope` may see it; otherwise -32001, worded as for a task that does not exist. */
export async function requireTaskInScope(taskId: string, scope: TaskScope): Promise<TaskRecord> {
  const record = await findTaskInScope(taskId, scope);
  if (!record) throw taskNotFound(taskId);
  return record;
}
