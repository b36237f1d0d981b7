'use client';
/**
 * The delegation graph around a task: its parent (a local task, or the calling hub's task page),
 * and its children (dispatches made for it, and tasks of ours that a peer made for them), each
 * with state and duration. Kept live by refetching while any of them runs.
 */
import Link from 'next/link';
import { Card, CardHeader } from '@/components/ui/card';
import { displayStateOf, isTerminal, type ChildTask, type TaskDetail } from '@/lib/dashboard/wire';
import { formatDuration, taskDuration } from './format';
import { StateBadge } from './state-badge';
import { useNow } from './use-now';

/** The peer's task page when the peer looks like a Switchboard (its A2A routes live at /a2a/…). */
function remotePage(child: ChildTask): string | null {
  if (child.direction !== 'outbound' || !child.remoteTaskId || !child.peerUrl) return null;
  try {
    const url = new URL(child.peerUrl);
    return /^\/a2a(\/|$)/.test(url.pathname) ? `${url.origin}/tasks/${encodeURIComponent(child.remoteTaskId)}` : null;
  } catch {
    return null;
  }
}

function ChildRow({ child, now }: { child: ChildTask; now: number }) {
  const hop = child.direction === 'outbound' ? (child.peerName ?? child.peerUrl ?? 'peer') : (child.agentSlug ?? 'agent');
  return (
    <li className="flex flex-wrap items-center gap-2 py-1 text-sm" data-testid="child-task" data-state={child.state}>
      <StateBadge state={displayStateOf(child.state, false)} />
      <Link href={`/tasks/${child.id}`} className="font-mono text-xs text-indigo-700 hover:underline dark:text-indigo-300">
        {child.id}
      </Link>
      <span className="text-zinc-600 dark:text-zinc-400">
        {child.direction === 'outbound' ? '→' : '←'} {hop}
      </span>
      {child.remoteTaskId && remotePage(child) ? (
        <a href={remotePage(child)!} className="font-mono text-xs text-indigo-700 hover:underline dark:text-indigo-300" data-testid="remote-hop" title="the peer's task page">
          remote {child.remoteTaskId}
        </a>
      ) : child.remoteTaskId ? (
        <span className="font-mono text-xs text-zinc-500" title="the peer's task id">remote {child.remoteTaskId}</span>
      ) : null}
      <span className="text-xs text-zinc-500 tabular-nums">{now ? formatDuration(taskDuration(child, now)) : ''}</span>
    </li>
  );
}

export function DelegationTree({ detail }: { detail: TaskDetail }) {
  const now = useNow();
  const { task, children } = detail;
  if (!task.parentTaskId && !children.length) return null;
  // A calling hub's page when it gave one, else ours (a local parent, or a call from this hub).
  const parentHref = task.parentUrl ?? `/tasks/${task.parentTaskId}`;
  return (
    <Card data-testid="delegation-tree">
      <CardHeader title="Delegation" />
      <div className="space-y-2 px-4 py-3">
        {task.parentTaskId ? (
          <div className="text-sm" data-testid="parent-task">
            <span className="text-zinc-500 dark:text-zinc-400">Parent </span>
            <a href={parentHref} className="font-mono text-xs text-indigo-700 hover:underline dark:text-indigo-300">
              {task.parentTaskId}
            </a>
          </div>
        ) : null}
        {children.length ? (
          <ul aria-label="Child tasks" className="divide-y divide-zinc-100 dark:divide-zinc-800">
            {children.map((c) => (
              <ChildRow key={c.id} child={c} now={now} />
            ))}
          </ul>
        ) : null}
      </div>
    </Card>
  );
}

/** True while the task or one of its children still runs (the page then refreshes the tree). */
export const treeRunning = (detail: TaskDetail) => !isTerminal(detail.task.state) || detail.children.some((c) => !isTerminal(c.state));
