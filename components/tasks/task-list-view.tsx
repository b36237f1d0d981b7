'use client';
/**
 * The home page: counts as filters, filters, the live feed and the list. Composition only;
 * data comes from lib/query hooks and the URL holds the view's state.
 */
import { useMemo } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useFeed } from '@/lib/query/use-feed';
import { useTaskCounts, useTaskList } from '@/lib/query/use-tasks';
import { agentOrPeer } from './direction-label';
import { FeedToggle } from './feed-toggle';
import { NewTasksBanner } from './new-tasks-banner';
import { StateChips } from './state-chips';
import { TaskFilters } from './task-filters';
import { TaskTable } from './task-table';
import { useListParams } from './use-list-params';

export function TaskListView() {
  const { filter, paused, update } = useListParams();
  const list = useTaskList(filter);
  const counts = useTaskCounts(filter);
  const feed = useFeed(filter, paused);
  const agents = useMemo(() => [...new Set(list.tasks.map(agentOrPeer))].filter((a) => a !== '—').sort(), [list.tasks]);

  const showNew = () => {
    feed.clearNew();
    void list.showNewest();
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-xl font-semibold">Tasks</h1>
        <FeedToggle status={feed.status} paused={paused} onToggle={() => update({ live: paused ? undefined : 'paused' })} />
      </div>
      <StateChips counts={counts.data?.counts} total={counts.data?.total} selected={filter.state} onSelect={(state) => update({ state })} />
      <TaskFilters filter={filter} update={update} agents={agents} />
      <NewTasksBanner count={feed.newCount} onShow={showNew} />
      <Card>
        {list.isPending ? (
          <div className="flex items-center gap-2 p-6 text-sm text-zinc-500">
            <Spinner /> Loading tasks…
          </div>
        ) : list.isError ? (
          <div className="p-4">
            <Alert tone="error" title="Could not load tasks">
              {list.error.message}
            </Alert>
          </div>
        ) : list.tasks.length === 0 ? (
          <p className="p-6 text-sm text-zinc-500 dark:text-zinc-400" data-testid="empty-list">
            No tasks match these filters.
          </p>
        ) : (
          <TaskTable tasks={list.tasks} />
        )}
      </Card>
      {list.hasNextPage ? (
        <div className="flex justify-center">
          <Button onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage} data-testid="load-more">
            {list.isFetchingNextPage ? 'Loading…' : 'Load older tasks'}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
