'use client';
import Link from 'next/link';
import { memo } from 'react';
import { FOCUS_RING } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import type { TaskSummary } from '@/lib/dashboard/wire';
import { agentOrPeer, DirectionLabel, ownerLabel, ownerTitle } from './direction-label';
import { formatAgo, formatDuration, taskDuration } from './format';
import { StateBadge } from './state-badge';
import { ProgressBar } from './task-picture';
import { progressFromText } from '@/lib/query/task-phases';
import { isTerminal } from '@/lib/dashboard/wire';

/** One task in the list. Memoised: a feed batch re-renders only the rows it changed. */
export const TaskRow = memo(function TaskRow({ task, now, selected = false }: { task: TaskSummary; now: number; selected?: boolean }) {
  const progress = isTerminal(task.state) ? null : progressFromText(task.statusText);
  return (
    <tr
      data-testid="task-row"
      data-task-id={task.id}
      data-state={task.displayState}
      aria-selected={selected}
      className={cn('align-top hover:bg-zinc-50 dark:hover:bg-zinc-800/50', selected && 'bg-indigo-50 outline-2 -outline-offset-2 outline-indigo-500 dark:bg-indigo-950/40')}
    >
      <td className="py-2 pr-3 pl-4">
        <StateBadge state={task.displayState} testId="row-state" />
        {progress !== null ? <div className="mt-1"><ProgressBar value={progress} compact /></div> : null}
      </td>
      <td className="hidden py-2 pr-3 md:table-cell">
        <DirectionLabel direction={task.direction} />
      </td>
      <td className="hidden max-w-[10rem] py-2 pr-3 text-sm sm:table-cell">
        <p className="truncate" title={agentOrPeer(task)}>
          {agentOrPeer(task)}
        </p>
        <p className="truncate text-xs text-zinc-500 dark:text-zinc-400" data-testid="row-owner" title={ownerTitle(task)}>
          by {ownerLabel(task)}
        </p>
      </td>
      <td className="min-w-0 py-2 pr-3 text-sm">
        <Link href={`/tasks/${task.id}`} className={cn('line-clamp-2 rounded font-medium break-words text-zinc-900 hover:text-indigo-700 dark:text-zinc-100 dark:hover:text-indigo-300', FOCUS_RING)}>
          {task.requestPreview || <span className="text-zinc-400 italic">(no text)</span>}
        </Link>
        {task.statusText || task.endReason ? (
          <p className="mt-0.5 line-clamp-1 text-xs break-all text-zinc-500 dark:text-zinc-400">{task.endReason ?? task.statusText}</p>
        ) : null}
        <p className="mt-0.5 text-xs text-zinc-500 sm:hidden">
          {task.direction} · {agentOrPeer(task)} · by {ownerLabel(task)}
        </p>
      </td>
      <td className="py-2 pr-3 text-right text-xs whitespace-nowrap text-zinc-600 tabular-nums dark:text-zinc-400" data-testid="row-duration">
        {now ? formatDuration(taskDuration(task, now)) : ''}
      </td>
      <td className="hidden py-2 pr-4 text-right text-xs whitespace-nowrap text-zinc-600 tabular-nums lg:table-cell dark:text-zinc-400" title={task.updatedAt}>
        {now ? formatAgo(task.updatedAt, now) : ''}
      </td>
    </tr>
  );
});
