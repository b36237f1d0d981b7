/**
 * ListTasks (v1.0; also served as v0.3 tasks/list): cursor paging over the caller's own inbound
 * tasks at this agent (its scope), newest first. The page token is an opaque base64url cursor.
 */
import { countTasksInScope, listTasksInScope } from '../db/task-repo';
import type { CallerScope } from '../db/task-scope';
import { buildTask } from '../engine';
import { getSettings } from '../config/settings';
import type { TaskRecord } from '../db/task-records';
import type { Task } from '../protocol/types';
import { A2AError } from '../protocol/errors';
import { stateFromV10, taskToV10 } from '../protocol/v10';
import type { ProtocolVersion } from './rpc-methods';
import { decodeListCursor, encodeListCursor, type ListCursor } from '../db/list-cursor';

interface ListParams {
  contextId?: string;
  status?: string;
  pageSize: number;
  pageToken?: string;
  historyLength?: number;
  statusTimestampAfter?: string;
  includeArtifacts?: boolean;
}

function decodeToken(token: string): ListCursor {
  const cursor = decodeListCursor(token);
  if (cursor) return cursor;
  throw new A2AError('invalidParams', 'params.pageToken: not a token returned by ListTasks');
}

/**
 * One page's tasks. With includeArtifacts the page carries at most SWITCHBOARD_MAX_TASK_OUTPUT_BYTES
 * of artifacts in all (one task's worth, not a hundred): a task past that budget comes without
 * them, marked `metadata.switchboard.artifactsOmitted`, to be fetched with tasks/get.
 */
async function buildPage(records: TaskRecord[], p: ListParams): Promise<Task[]> {
  const tasks: Task[] = [];
  let budget = getSettings().maxTaskOutputBytes;
  for (const record of records) {
    const task = await buildTask(record, { historyLength: p.historyLength ?? 0, includeArtifacts: p.includeArtifacts === true });
    const bytes = task.artifacts?.length ? JSON.stringify(task.artifacts).length : 0;
    if (bytes > budget) {
      task.artifacts = [];
      task.metadata = { ...task.metadata, switchboard: { ...(task.metadata?.switchboard as object), artifactsOmitted: 'the page passed its artifact budget; fetch this task with tasks/get' } };
    } else budget -= bytes;
    tasks.push(task);
  }
  return tasks;
}

export async function listInboundTasks(scope: CallerScope, p: ListParams, v: ProtocolVersion) {
  const filter = {
    contextId: p.contextId,
    states: p.status ? [stateFromV10(p.status)] : undefined,
    since: p.statusTimestampAfter ? new Date(p.statusTimestampAfter) : undefined,
  };
  const [page, totalSize] = await Promise.all([
    listTasksInScope(scope, { ...filter, limit: p.pageSize, cursor: p.pageToken ? decodeToken(p.pageToken) : undefined }),
    countTasksInScope(scope, filter),
  ]);
  const tasks = await buildPage(page.tasks, p);
  return {
    tasks: v === '1.0' ? tasks.map(taskToV10) : tasks,
    nextPageToken: page.nextCursor ? encodeListCursor(page.nextCursor) : '',
    pageSize: p.pageSize,
    totalSize,
  };
}
