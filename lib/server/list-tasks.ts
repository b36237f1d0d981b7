/**
 * ListTasks (v1.0; also served as v0.3 tasks/list): cursor paging over the caller's own inbound
 * tasks at this agent (its scope), newest first. The page token is an opaque base64url cursor.
 */
import { countTasksInScope, listTasksInScope } from '../db/task-repo';
import type { CallerScope } from '../db/task-scope';
import { buildTask } from '../engine/snapshot';
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
  const tasks = await Promise.all(
    page.tasks.map((t) => buildTask(t, { historyLength: p.historyLength ?? 0, includeArtifacts: p.includeArtifacts === true })),
  );
  return {
    tasks: v === '1.0' ? tasks.map(taskToV10) : tasks,
    nextPageToken: page.nextCursor ? encodeListCursor(page.nextCursor) : '',
    pageSize: p.pageSize,
    totalSize,
  };
}
