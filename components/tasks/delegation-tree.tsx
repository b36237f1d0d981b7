'use client';
/**
 * The delegation graph around a task: its parent (a local task, or the calling hub's task page),
 * and its children (dispatches made for it, and tasks of ours that a peer made for them), each
 * with state and duration; under an outbound child, the remote hop: the task it reached at the
 * peer and, when the peer is a Switchboard, that task's own children there (read at the peer).
 * Kept live by refetching while any of them runs.
 */
import Link from 'next/link';
import { Card, CardHeader } from '@/components/ui/card';
import { displayStateOf, isTerminal, type ChildTask, type RemoteHop, type TaskDetail } from '@/lib/dashboard/wire';
import { useTaskHops } from '@/lib/query/use-task';
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

function ChildRow({ child, now, hop }: { child: ChildTask; now: number; hop?: RemoteHop }) {
  const hopName = child.direction === 'outbound' ? (child.peerName ?? child.peerUrl ?? 'peer') : (child.agentSlug ?? 'agent');
  const page = remotePage(child);
  return (
    <li className="py-1 text-sm" data-testid="child-task" data-state={child.state}>
      <div className="flex flex-wrap items-center gap-2">
        <StateBadge state={displayStateOf(child.state, false)} />
        <Link href={`/tasks/${child.id}`} className="font-mono text-xs text-indigo-700 hover:underline dark:text-indigo-300">
          {child.id}
        </Link>
        <span className="text-zinc-600 dark:text-zinc-400">
          {child.direction === 'outbound' ? '→' : '←'} {hopName}
        </span>
        {child.remoteTaskId && page ? (
          <a href={page} className="font-mono text-xs text-indigo-700 hover:underline dark:text-indigo-300" data-testid="remote-hop" title="the peer's task page">
            remote {child.remoteTaskId}
          </a>
        ) : child.remoteTaskId ? (
          <span className="font-mono text-xs text-zinc-500" title="the peer's task id">remote {child.remoteTaskId}</span>
        ) : null}
        <span className="text-xs text-zinc-500 tabular-nums">{now ? formatDuration(taskDuration(child, now)) : ''}</span>
      </div>
      {hop ? <RemoteHopRows hop={hop} now={now} /> : null}
    </li>
  );
}

/** The peer's children of the task a child reached there (the next hops), or why not known. */
function RemoteHopRows({ hop, now }: { hop: RemoteHop; now: number }) {
  if (hop.error) return <p className="ml-6 text-xs text-zinc-500" data-testid="remote-hop-error">{hop.error}</p>;
  if (!hop.children.length) return null;
  return (
    <ul aria-label={`Children of remote task ${hop.remoteTaskId}`} className="ml-6 border-l border-zinc-200 pl-3 dark:border-zinc-700">
      {hop.children.map((c) => {
        const page = remotePage(c);
        return (
          <li key={c.id} className="flex flex-wrap items-center gap-2 py-1" data-testid="remote-child" data-state={c.state} data-remote-task-id={c.remoteTaskId ?? ''}>
            <StateBadge state={displayStateOf(c.state, false)} />
            <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400" title="the task at the peer">{c.id}</span>
            <span className="text-zinc-600 dark:text-zinc-400">
              {c.direction === 'outbound' ? '→' : '←'} {c.direction === 'outbound' ? (c.peerName ?? c.peerUrl ?? 'peer') : (c.agentSlug ?? 'agent')}
            </span>
            {c.remoteTaskId ? (
              page ? (
                <a href={page} className="font-mono text-xs text-indigo-700 hover:underline dark:text-indigo-300" title="the next peer's task page">remote {c.remoteTaskId}</a>
              ) : (
                <span className="font-mono text-xs text-zinc-500">remote {c.remoteTaskId}</span>
              )
            ) : null}
            <span className="text-xs text-zinc-500 tabular-nums">{now ? formatDuration(taskDuration(c, now)) : ''}</span>
          </li>
        );
      })}
    </ul>
  );
}

export function DelegationTree({ detail }: { detail: TaskDetail }) {
  const now = useNow();
  const { task, children } = detail;
  const reachesPeers = children.some((c) => c.direction === 'outbound' && c.remoteTaskId);
  const hops = useTaskHops(task.id, treeRunning(detail), reachesPeers);
  if (!task.parentTaskId && !task.callerParent && !children.length) return null;
  return (
    <Card data-testid="delegation-tree">
      <CardHeader title="Delegation" />
      <div className="space-y-2 px-4 py-3">
        {task.parentTaskId ? (
          <div className="text-sm" data-testid="parent-task">
            <span className="text-zinc-500 dark:text-zinc-400">Parent </span>
            <a href={`/tasks/${task.parentTaskId}`} className="font-mono text-xs text-indigo-700 hover:underline dark:text-indigo-300">
              {task.parentTaskId}
            </a>
          </div>
        ) : null}
        {task.callerParent ? (
          // The caller's claim: plain text, so a caller cannot put a link on the operator's screen.
          <div className="text-sm" data-testid="caller-parent">
            <span className="text-zinc-500 dark:text-zinc-400">Called for (as the caller says) </span>
            <span className="font-mono text-xs">{task.callerParent.taskId}</span>
            {task.callerParent.url ? <span className="ml-2 break-all font-mono text-xs text-zinc-500 dark:text-zinc-400">{task.callerParent.url}</span> : null}
          </div>
        ) : null}
        {children.length ? (
          <ul aria-label="Child tasks" className="divide-y divide-zinc-100 dark:divide-zinc-800">
            {children.map((c) => (
              <ChildRow key={c.id} child={c} now={now} hop={hops.data?.find((h) => h.taskId === c.id)} />
            ))}
          </ul>
        ) : null}
      </div>
    </Card>
  );
}

/** True while the task or one of its children still runs (the page then refreshes the tree). */
export const treeRunning = (detail: TaskDetail) => !isTerminal(detail.task.state) || detail.children.some((c) => !isTerminal(c.state));
