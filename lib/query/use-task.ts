/** One task: its detail (summary, A2A snapshot, timeline) and the cancel action. */
import { queryOptions, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { isTerminal, TaskDetailSchema, TaskHopsSchema, TaskSummarySchema, type ChildTask, type RemoteHop, type TimelineEvent } from '@/lib/dashboard/wire';
import { apiGet, apiSend, withQuery } from './api-client';
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

/**
 * A task's children, refetched every 2 s while the task or one of the children (as last read,
 * not as the page first loaded them) still runs: the tree on the task page.
 */
export function useTaskChildren(id: string, taskRunning: boolean) {
  return useQuery({
    queryKey: [...taskKeys.detail(id), 'children'],
    queryFn: ({ signal }) => apiGet(`/api/tasks/${encodeURIComponent(id)}`, TaskDetailSchema, signal).then((d) => d.children),
    refetchInterval: (query) => (taskRunning || (query.state.data ?? []).some((c) => !isTerminal(c.state)) ? 2_000 : false),
  });
}

const hopsRunning = (hops: RemoteHop[] | undefined) => (hops ?? []).some((h) => (h.state !== null && !isTerminal(h.state)) || h.children.some((c) => !isTerminal(c.state)));

/** The remote hops under a task (read at the peers), refetched every 2 s while the tree or a hop runs. */
export function useTaskHops(id: string, treeLive: boolean, enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: [...taskKeys.detail(id), 'hops'],
    queryFn: ({ signal }) => apiGet(`/api/tasks/${encodeURIComponent(id)}/hops`, TaskHopsSchema, signal).then((d) => d.hops),
    refetchInterval: (query) => (treeLive || hopsRunning(query.state.data) ? 2_000 : false),
  });
}

/** The picture draws at most this many children's phases (the rest as one bar each). */
export const MAX_CHILD_PICTURES = 20;

/** Each child's events by id (for its phase bars), refetched every 2 s while that child runs. */
export function useChildEvents(children: ChildTask[]): Map<string, TimelineEvent[]> {
  const shown = children.slice(0, MAX_CHILD_PICTURES);
  const results = useQueries({
    queries: shown.map((c) => ({
      queryKey: [...taskKeys.detail(c.id), 'phases', c.state],
      queryFn: ({ signal }: { signal: AbortSignal }) => apiGet(`/api/tasks/${encodeURIComponent(c.id)}`, TaskDetailSchema, signal).then((d) => d.events),
      refetchInterval: isTerminal(c.state) ? (false as const) : 2_000,
    })),
  });
  return new Map(shown.flatMap((c, i) => (results[i].data ? [[c.id, results[i].data]] : [])));
}

/**
 * Cancels the given tasks: a selection, or a parent's running children when the operator chose
 * to (`parentTaskId`, so each child's reason names the parent it went with).
 */
export function useCancelTasks() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, parentTaskId }: { ids: string[]; parentTaskId?: string }) =>
      Promise.all(ids.map((id) => apiSend('POST', withQuery(`/api/tasks/${encodeURIComponent(id)}/cancel`, { parent: parentTaskId }), CancelResponseSchema))),
    onSettled: () => client.invalidateQueries({ queryKey: taskKeys.countsAll() }),
  });
}
