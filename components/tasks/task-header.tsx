'use client';
import { Alert } from '@/components/ui/alert';
import { isTerminal, type TaskDetail } from '@/lib/dashboard/wire';
import type { LiveStatus } from '@/lib/query/live-stream';
import { agentOrPeer, DirectionLabel, ownerLabel, ownerTitle } from './direction-label';
import { formatDateTime, formatDuration, taskDuration } from './format';
import { StateBadge } from './state-badge';
import { StreamIndicator } from './stream-indicator';
import { TaskActions } from './task-actions';
import { WatchButton } from './watch-button';
import { useNow } from './use-now';

function Meta({ label, title, testId, children }: { label: string; title?: string; testId?: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-zinc-500 dark:text-zinc-400">{label}</dt>
      <dd className="truncate text-sm" data-testid={testId} title={title ?? (typeof children === 'string' ? children : undefined)}>
        {children}
      </dd>
    </div>
  );
}

/** Why a task did not complete, stated plainly (truncated, grace exceeded, interrupted, peer error...). */
function EndReason({ task }: { task: TaskDetail['task'] }) {
  if (task.state === 'completed' || !(task.endReason || task.state === 'failed' || task.state === 'rejected' || task.state === 'canceled')) return null;
  return (
    <Alert tone={task.state === 'canceled' ? 'warning' : 'error'} title={`Task ${task.state}`} testId="end-reason">
      {task.endReason ?? task.statusText ?? 'no reason was recorded'}
    </Alert>
  );
}

/** The terminal status event says `reply: "message"` (lib/engine/inbound/direct-reply.ts). */
function isDirectReply(detail: TaskDetail): boolean {
  return detail.events.some((e) => e.type === 'status' && (e.payload as { reply?: unknown } | null)?.reply === 'message');
}

export function TaskHeader({ detail, stream }: { detail: TaskDetail; stream: LiveStatus }) {
  const { task } = detail;
  const now = useNow();
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <StateBadge state={task.displayState} testId="task-state" />
            <DirectionLabel direction={task.direction} />
            <StreamIndicator status={stream} />
          </div>
          <h1 className="font-mono text-sm break-all text-zinc-600 dark:text-zinc-400">{task.id}</h1>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {isTerminal(task.state) ? null : <WatchButton taskId={task.id} />}
          <TaskActions detail={detail} />
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7">
        <Meta label={task.direction === 'inbound' ? 'Agent' : 'Peer'}>{agentOrPeer(task)}</Meta>
        <Meta label="Owner" title={ownerTitle(task)} testId="task-owner">
          {ownerLabel(task)}
        </Meta>
        <Meta label="Created">{formatDateTime(task.createdAt)}</Meta>
        <Meta label="Duration">{now ? formatDuration(taskDuration(task, now)) : '—'}</Meta>
        <Meta label="Context">{task.contextId}</Meta>
        <Meta label="Events">{String(task.lastSeq)}</Meta>
        {task.remoteTaskId ? <Meta label="Remote task">{task.remoteTaskId}</Meta> : null}
        {task.traceId ? (
          <Meta label="Trace" testId="trace-id" title={`W3C trace id ${task.traceId}`}>
            <span className="font-mono text-xs">{task.traceId}</span>
          </Meta>
        ) : null}
      </dl>
      <EndReason task={task} />
      {isDirectReply(detail) ? (
        <Alert tone="info" title="Direct message reply" testId="direct-reply-note">
          The agent answered with a message instead of a task result: a caller waiting on the send that created this task received that Message, not the task. It is kept here as a completed task.
        </Alert>
      ) : null}
      {task.displayState === 'detached' ? (
        <Alert tone="warning" title="Detached" testId="detached-note">
          The caller stopped waiting; the task is still running and its result will be recorded here.
        </Alert>
      ) : null}
    </div>
  );
}
