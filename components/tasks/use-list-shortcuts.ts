'use client';
/**
 * Keyboard shortcuts on the task list: j / ↓ next, k / ↑ previous, Enter or o opens, c cancels
 * the selected task after a confirmation (operators only; the API checks the role too).
 * Keys typed into a form field are left alone.
 */
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import type { TaskSummary } from '@/lib/dashboard/wire';
import { isTerminal } from '@/lib/dashboard/wire';
import { useCancelTasks } from '@/lib/query/use-task';
import { useSession } from '@/lib/query/use-session';

const typing = (target: EventTarget | null) => target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

export function useListShortcuts(tasks: TaskSummary[]): number {
  const [index, setIndex] = useState(-1);
  const router = useRouter();
  const cancel = useCancelTasks();
  const { canOperate } = useSession();

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || typing(e.target) || !tasks.length) return;
      const current = tasks[index];
      if (e.key === 'j' || e.key === 'ArrowDown') setIndex((i) => Math.min(tasks.length - 1, i + 1));
      else if (e.key === 'k' || e.key === 'ArrowUp') setIndex((i) => Math.max(0, i - 1));
      else if ((e.key === 'Enter' || e.key === 'o') && current) router.push(`/tasks/${current.id}`);
      else if (e.key === 'c' && current && canOperate && !isTerminal(current.state)) {
        if (window.confirm(`Cancel task ${current.id}?`)) cancel.mutate({ ids: [current.id] });
      } else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [tasks, index, router, cancel, canOperate]);

  useEffect(() => {
    if (index >= 0) document.querySelector(`[data-task-id="${tasks[index]?.id}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [index, tasks]);

  return index;
}
