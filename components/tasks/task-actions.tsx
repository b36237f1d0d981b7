'use client';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import type { TaskDetail } from '@/lib/dashboard/wire';
import { isTerminal } from '@/lib/dashboard/wire';
import { textOf } from '@/lib/protocol/types';
import { useCancelTask, useCancelTasks } from '@/lib/query/use-task';
import { useSession } from '@/lib/query/use-session';

const CONFIRM_MS = 5_000;

/** Where "dispatch again" sends the same request: the same peer, or our own agent's URL. */
function dispatchAgainHref(detail: TaskDetail, origin: string): string {
  const { task, snapshot } = detail;
  const request = snapshot.history?.find((m) => m.role === 'user');
  const params = new URLSearchParams({ text: request ? textOf(request.parts) : task.requestText });
  if (task.direction === 'outbound' && task.peerName) params.set('peer', task.peerName);
  else if (task.direction === 'outbound' && task.peerUrl) params.set('url', task.peerUrl);
  else if (task.agentSlug) params.set('url', `${origin}/a2a/${task.agentSlug}`);
  return `/dispatch?${params}`;
}

/** Answering a peer that asked for input: the same peer, continuing the same task. */
function replyHref(detail: TaskDetail): string | null {
  const { task } = detail;
  if (task.direction !== 'outbound' || task.state !== 'input-required') return null;
  const params = new URLSearchParams({ taskId: task.id });
  if (task.peerName) params.set('peer', task.peerName);
  else if (task.peerUrl) params.set('url', task.peerUrl);
  return `/dispatch?${params}`;
}

/** Operator actions. Viewers do not see them; the API refuses them too. */
export function TaskActions({ detail }: { detail: TaskDetail }) {
  const { canOperate } = useSession();
  const cancel = useCancelTask(detail.task.id);
  const cancelChildren = useCancelTasks();
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  // Cancelling a parent offers to cancel its running children too; never by default.
  const [withChildren, setWithChildren] = useState(false);
  const runningChildren = detail.children.filter((c) => !isTerminal(c.state)).map((c) => c.id);

  useEffect(() => {
    if (!confirming) return;
    const t = setTimeout(() => setConfirming(false), CONFIRM_MS);
    return () => clearTimeout(t);
  }, [confirming]);

  if (!canOperate) return null;
  const running = !isTerminal(detail.task.state);
  return (
    <div className="flex flex-wrap items-center gap-2">
      {running ? (
        <Button
          variant={confirming ? 'danger' : 'secondary'}
          size="sm"
          data-testid="cancel-task"
          disabled={cancel.isPending}
          onClick={() => {
            if (!confirming) return setConfirming(true);
            setConfirming(false);
            cancel.mutate();
            if (withChildren && runningChildren.length) cancelChildren.mutate({ ids: runningChildren, parentTaskId: detail.task.id });
          }}
        >
          {cancel.isPending ? 'Canceling…' : confirming ? 'Confirm cancel' : 'Cancel task'}
        </Button>
      ) : null}
      {running && confirming && runningChildren.length ? (
        <label className="flex items-center gap-1 text-xs text-zinc-700 dark:text-zinc-300">
          <input type="checkbox" data-testid="cancel-children" checked={withChildren} onChange={(e) => setWithChildren(e.target.checked)} />
          also cancel {runningChildren.length} running child task{runningChildren.length === 1 ? '' : 's'}
        </label>
      ) : null}
      {replyHref(detail) ? (
        <Button size="sm" variant="primary" data-testid="reply" onClick={() => router.push(replyHref(detail)!)}>
          Reply
        </Button>
      ) : null}
      <Button size="sm" data-testid="dispatch-again" onClick={() => router.push(dispatchAgainHref(detail, window.location.origin))}>
        Dispatch again
      </Button>
      {cancel.isError ? (
        <span role="alert" className="text-xs text-red-600 dark:text-red-400">
          {cancel.error.message}
        </span>
      ) : null}
    </div>
  );
}
