/**
 * The list's live feed (GET /api/feed). Changed tasks already on screen are patched in place;
 * tasks created after the list's anchor that match its filters are only counted, for the
 * "N new tasks" banner, so rows never move under the operator's eyes. After a drop (or a
 * pause) the loaded pages are refetched at the same anchor and the new-task count is asked of
 * the server, so nothing that happened meanwhile is missed.
 */
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { FEED_EVENT, FeedBatchSchema, TIME_RANGE_MS, type TaskFilter, type TaskSummary } from '@/lib/dashboard/wire';
import { taskKeys } from './keys';
import { openLiveStream, type LiveStatus } from './live-stream';
import { newTaskIds, type TaskListData } from './use-tasks';

const COUNTS_REFRESH_MS = 2_000;
const NEW_CHECK_MS = 1_000;
const LATE_COMMIT_MS = 5_000;

/** true / false when the browser can tell, null when only the server can (text search). */
function matches(task: TaskSummary, filter: TaskFilter, now: number): boolean | null {
  if (filter.state && task.displayState !== filter.state) return false;
  if (filter.direction && task.direction !== filter.direction) return false;
  if (filter.agent && task.agentSlug !== filter.agent && task.peerName !== filter.agent) return false;
  if (filter.range && Date.parse(task.createdAt) < now - TIME_RANGE_MS[filter.range]) return false;
  return filter.q ? null : true;
}

function patchLists(client: QueryClient, changed: Map<string, TaskSummary>): Set<string> {
  const seen = new Set<string>();
  client.setQueriesData<TaskListData>({ queryKey: taskKeys.lists() }, (data) => {
    if (!data) return data;
    let touched = false;
    const pages = data.pages.map((page) => {
      if (!page.tasks.some((t) => changed.has(t.id))) return page;
      touched = true;
      return { ...page, tasks: page.tasks.map((t) => (seen.add(t.id), changed.get(t.id) ?? t)) };
    });
    return touched ? { ...data, pages } : data;
  });
  return seen;
}

/** `run` once, `ms` after the first of any number of calls; `cancel` drops a pending run. */
function coalesced(run: () => void, ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const call = () => {
    timer ??= setTimeout(() => {
      timer = undefined;
      run();
    }, ms);
  };
  return Object.assign(call, { cancel: () => timer && clearTimeout(timer) });
}

/**
 * Which changed tasks are new to the operator: missing from the loaded window means created
 * after the list loaded, or committed just after its query although created just before it, or
 * only now matching the filter. Older than the loaded pages means merely not loaded yet.
 * `askServer` when only the server can tell (text search).
 */
function newArrivals(tasks: TaskSummary[], onScreen: Set<string>, list: TaskListData, filter: TaskFilter) {
  const last = list.pages[list.pages.length - 1];
  const oldest = last.tasks[last.tasks.length - 1]?.createdAt;
  const now = Date.now();
  const added: string[] = [];
  let askServer = false;
  for (const task of tasks) {
    if (onScreen.has(task.id)) continue;
    if (last.nextCursor && oldest && task.createdAt < oldest) continue;
    const match = matches(task, filter, now);
    if (match === null) askServer = true;
    else if (match) added.push(task.id);
  }
  return { added, askServer };
}

/** Ids the server has after the list's anchor that are not loaded (null: nothing to ask yet). */
async function unseenOnServer(client: QueryClient, filter: TaskFilter): Promise<Set<string> | null> {
  const list = client.getQueryData<TaskListData>(taskKeys.list(filter));
  const after = list?.pages[0]?.asOf;
  if (!list || !after) return null;
  const loaded = new Set(list.pages.flatMap((p) => p.tasks.map((t) => t.id)));
  // Look a little before the anchor: a task created just before the list's query but committed
  // just after it is in neither.
  const since = new Date(Date.parse(after) - LATE_COMMIT_MS).toISOString();
  const ids = await newTaskIds(filter, since);
  return new Set(ids.filter((id) => !loaded.has(id)));
}

export function useFeed(filter: TaskFilter, paused: boolean) {
  const client = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const filterKey = JSON.stringify(filter);
  // New ids belong to one filter: switching filters starts the count afresh.
  const [fresh, setFresh] = useState<{ key: string; ids: ReadonlySet<string> }>({ key: filterKey, ids: new Set() });
  const connectedBefore = useRef(false);

  useEffect(() => {
    if (paused) return;
    const setNewIds = (update: (prev: ReadonlySet<string>) => ReadonlySet<string>) =>
      setFresh((prev) => ({ key: filterKey, ids: update(prev.key === filterKey ? prev.ids : new Set()) }));
    const refreshCounts = coalesced(() => void client.invalidateQueries({ queryKey: taskKeys.countsAll() }), COUNTS_REFRESH_MS);
    const checkNewOnServer = coalesced(() => {
      unseenOnServer(client, filter).then((ids) => ids && setNewIds(() => ids), () => undefined);
    }, NEW_CHECK_MS);
    const onBatch = (data: string) => {
      const { tasks } = FeedBatchSchema.parse(JSON.parse(data));
      const onScreen = patchLists(client, new Map(tasks.map((t) => [t.id, t])));
      const list = client.getQueryData<TaskListData>(taskKeys.list(filter));
      if (list) {
        const { added, askServer } = newArrivals(tasks, onScreen, list, filter);
        if (askServer) checkNewOnServer();
        if (added.length) setNewIds((prev) => new Set([...prev, ...added]));
      }
      refreshCounts();
    };
    const close = openLiveStream({
      url: () => '/api/feed',
      events: { [FEED_EVENT]: onBatch },
      onStatus: (next) => {
        setStatus(next);
        if (next !== 'live') return;
        if (connectedBefore.current) {
          void client.invalidateQueries({ queryKey: taskKeys.lists() });
          void client.invalidateQueries({ queryKey: taskKeys.countsAll() });
          checkNewOnServer();
        }
        connectedBefore.current = true;
      },
    });
    return () => {
      close();
      refreshCounts.cancel();
      checkNewOnServer.cancel();
    };
    // filterKey stands for filter: the effect must not restart on an equal object.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, filterKey, paused]);

  const clearNew = useCallback(() => setFresh({ key: filterKey, ids: new Set() }), [filterKey]);
  const newCount = fresh.key === filterKey ? fresh.ids.size : 0;
  return { status: paused ? ('paused' as const) : status, newCount, clearNew };
}
