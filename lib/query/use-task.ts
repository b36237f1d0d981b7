/** One task: its detail (summary, A2A snapshot, timeline) and the cancel action. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { TaskDetailSchema, TaskSummarySchema } from '@/lib/dashboard/wire';
import { apiGet, apiSend } from './api-client';
import { taskKeys } from './keys';

export function taskDetailOptions(id: string) {
  return queryOptions({
    queryKey: taskKeys.detail(id),
    queryFn: ({ signal }) => apiGet(`/api/tasks/${encodeURIComponent(id)}`, TaskDetailSchema, signal),
    // The task stream keeps this entry current; a refetch would only race it.
    staleTime: Infinity,
  });
}

export function useTask(id: string) {
  return useQuery(taskDetailOptions(id));
}

const CancelResponseSchema = z.object({ task: TaskSummarySchema });

export function useCancelTask(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiSend('POST', `/api/tasks/${encodeURIComponent(id)}/cancel`, CancelResponseSchema),
    // The canceled event arrives on the task stream; counts change too.
    onSettled: () => client.invalidateQueries({ queryKey: taskKeys.countsAll() }),
  });
}

/** A task's children, refetched every 2 s while `live` (the tree on the task page). */
export function useTaskChildren(id: string, live: boolean) {
  return useQuery({
    queryKey: [...taskKeys.detail(id), 'children'],
    queryFn: ({ signal }) => apiGet(`/api/tasks/${encodeURIComponent(id)}`, TaskDetailSchema, signal).then((d) => d.children),
    refetchInterval: live ? 2_000 : false,
  });
}

/** Cancels the given tasks (a parent's running children, when the operator chose to). */
export function useCancelTasks() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => Promise.all(ids.map((id) => apiSend('POST', `/api/tasks/${encodeURIComponent(id)}/cancel`, CancelResponseSchema))),
    onSettled: () => client.invalidateQueries({ queryKey: taskKeys.countsAll() }),
  });
}
