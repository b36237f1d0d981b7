'use client';
/**
 * The task page: loads the detail once, then follows the task's stream from that seq, so the
 * header, artifacts, messages and timeline all update live from one cache entry.
 */
import Link from 'next/link';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { isTerminal } from '@/lib/dashboard/wire';
import { ClientError } from '@/lib/protocol/client-error';
import { useChildEvents, useTask, useTaskChildren } from '@/lib/query/use-task';
import { DelegationTree, treeRunning } from './delegation-tree';
import { TaskPicture } from './task-picture';
import { useTaskEvents } from '@/lib/query/use-task-events';
import { ArtifactList } from './artifact-list';
import { MessageList } from './message-list';
import { NotificationLog } from './notification-log';
import { RawExchange } from './raw-exchange';
import { TaskHeader } from './task-header';
import { TaskTimeline } from './task-timeline';

export function TaskView({ id }: { id: string }) {
  const query = useTask(id);
  // Follow only a task that was running when the page loaded; its stream closes at the end.
  const [follow, setFollow] = useState<boolean | null>(null);
  if (follow === null && query.data) setFollow(!isTerminal(query.data.task.state));
  const stream = useTaskEvents(id, follow === true);
  const children = useTaskChildren(id, query.data ? treeRunning(query.data) : true);
  const childEvents = useChildEvents(children.data ?? query.data?.children ?? []);

  if (query.isPending) {
    return (
      <div className="flex items-center gap-2 text-sm text-zinc-500">
        <Spinner /> Loading task…
      </div>
    );
  }
  if (query.isError) {
    const notFound = query.error instanceof ClientError && query.error.status === 404;
    return (
      <Alert tone="error" title={notFound ? 'No such task' : 'Could not load the task'}>
        {notFound ? <Link href="/">Back to the task list</Link> : query.error.message}
      </Alert>
    );
  }
  const detail = { ...query.data, children: children.data ?? query.data.children };
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href="/" className="text-indigo-700 hover:underline dark:text-indigo-300">
          ← Tasks
        </Link>
      </nav>
      <TaskHeader detail={detail} stream={stream} />
      <TaskPicture events={detail.events} childTasks={detail.children} childEvents={childEvents} />
      <DelegationTree detail={detail} />
      <div className="grid gap-4 lg:grid-cols-2">
        <div className="min-w-0 space-y-4">
          <ArtifactList artifacts={detail.snapshot.artifacts ?? []} running={!isTerminal(detail.task.state)} state={detail.task.state} />
          <MessageList messages={detail.snapshot.history ?? []} />
        </div>
        <div className="min-w-0 space-y-4">
          <TaskTimeline events={detail.events} />
          <NotificationLog taskId={detail.task.id} state={detail.task.state} />
        </div>
      </div>
      <RawExchange snapshot={detail.snapshot} />
    </div>
  );
}
