'use client';
import { FOCUS_RING } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';

/** New tasks are announced, not inserted: the rows the operator is reading stay put. */
export function NewTasksBanner({ count, onShow }: { count: number; onShow: () => void }) {
  if (count === 0) return null;
  return (
    <div aria-live="polite" className="flex justify-center">
      <button
        type="button"
        onClick={onShow}
        data-testid="new-tasks-banner"
        className={cn('rounded-full bg-indigo-600 px-4 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500', FOCUS_RING)}
      >
        {count} new {count === 1 ? 'task' : 'tasks'} — show
      </button>
    </div>
  );
}
