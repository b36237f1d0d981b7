/**
 * The live task list: keyset pages, newest first, anchored so that refetching never shifts
 * what the operator is reading. The first page's `asOf` is the anchor: later refetches of the
 * same list ask for tasks created until then, and tasks created after it are counted by the
 * feed ("N new tasks") until the operator asks to see them (showNewest resets the anchor).
 */
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useCallback } from 'react';
import {
  TaskCountsResponseSchema,
  TaskListResponseSchema,
  type TaskFilter,
  type TaskListResponse,
  type TaskSummary,
} from '@/lib/dashboard/wire';
import { apiGet, withQuery } from './api-client';
import { taskKeys } from './keys';

export type TaskListData = InfiniteData<TaskListResponse, string | null>;

export const PAGE_SIZE = 50;

export function taskListOptions(filter: TaskFilter) {
  return infiniteQueryOptions({
    queryKey: taskKeys.list(filter),
    initialPageParam: null as string | null,
    getNextPageParam: (last: TaskListResponse) => last.nextCursor,
    queryFn: async ({ pageParam, signal, client, queryKey }): Promise<TaskListResponse> => {
      const anchor = client.getQueryData<TaskListData>(queryKey)?.pages[0]?.asOf;
      const params = { ...filter, limit: PAGE_SIZE, cursor: pageParam ?? undefined, until: pageParam ? undefined : anchor };
      const page = await apiGet(withQuery('/api/tasks', params), TaskListResponseSchema, signal);
      // Keep the first anchor for the life of this list, so a refetch is the same list refreshed.
      return anchor && !pageParam ? { ...page, asOf: anchor } : page;
    },
    staleTime: Infinity,
  });
}

export function useTaskList(filter: TaskFilter) {
  const client = useQueryClient();
  const query = useInfiniteQuery(taskListOptions(filter));
  /**
   * Drops the anchor and loads the newest tasks (the "N new tasks" banner). The rows on screen
   * stay until the fresh first page replaces them, so the list never flashes empty.
   */
  const showNewest = useCallback(() => {
    const key = taskKeys.list(filter);
    client.setQueryData<TaskListData>(key, (old) =>
      old?.pages.length ? { pages: [{ ...old.pages[0], asOf: '' }], pageParams: [null] } : old,
    );
    return client.refetchQueries({ queryKey: key, exact: true });
  }, [client, filter]);
  const tasks: TaskSummary[] = query.data?.pages.flatMap((p) => p.tasks) ?? [];
  return { ...query, tasks, asOf: query.data?.pages[0]?.asOf ?? null, showNewest };
}

export function taskCountsOptions(filter: TaskFilter) {
  const { state: _state, ...rest } = filter;
  return queryOptions({
    queryKey: taskKeys.counts(rest),
    queryFn: ({ signal }) => apiGet(withQuery('/api/tasks/counts', rest), TaskCountsResponseSchema, signal),
    staleTime: 5_000,
  });
}

export function useTaskCounts(filter: TaskFilter) {
  return useQuery(taskCountsOptions(filter));
}

/** Ids of tasks matching `filter` created after `after` (server-side filtering, incl. search). */
export function newTaskIds(filter: TaskFilter, after: string, signal?: AbortSignal): Promise<string[]> {
  return apiGet(withQuery('/api/tasks', { ...filter, after, limit: 200 }), TaskListResponseSchema, signal).then((page) =>
    page.tasks.map((t) => t.id),
  );
}
