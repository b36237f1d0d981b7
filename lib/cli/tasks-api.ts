/** The task and dispatch routes as the CLI calls them, each answer checked against its wire schema. */
import { z } from 'zod';
import { DispatchResponseSchema, type DispatchInput } from '../dashboard/peer-wire';
import { TaskDetailSchema, TaskListResponseSchema, TaskSummarySchema, type DisplayState, type TaskDetail } from '../dashboard/wire';
import { withQuery } from '../query/api-client';
import { apiRequest, type ApiTarget } from './api';

export function fetchTaskDetail(target: ApiTarget, taskId: string): Promise<TaskDetail> {
  return apiRequest(target, `/api/tasks/${encodeURIComponent(taskId)}`, TaskDetailSchema, { subject: `task ${taskId}` });
}

export interface TaskListFilter {
  state?: DisplayState;
  peer?: string;
  limit?: number;
}

export function listTasks(target: ApiTarget, filter: TaskListFilter) {
  const query = { state: filter.state, agent: filter.peer, direction: filter.peer ? 'outbound' : undefined, limit: filter.limit };
  return apiRequest(target, withQuery('/api/tasks', query), TaskListResponseSchema);
}

export function cancelTask(target: ApiTarget, taskId: string) {
  return apiRequest(target, `/api/tasks/${encodeURIComponent(taskId)}/cancel`, z.object({ task: TaskSummarySchema }), { method: 'POST', subject: `task ${taskId}` });
}

/** POST /api/dispatch. A 404 here is always about the peer (the API's unknown_peer). */
export function dispatch(target: ApiTarget, input: DispatchInput & { metadata?: Record<string, unknown> }) {
  return apiRequest(target, '/api/dispatch', DispatchResponseSchema, { method: 'POST', body: input, subject: input.peer ? `peer ${input.peer}` : input.taskId ? `task ${input.taskId}` : undefined });
}
