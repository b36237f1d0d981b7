'use client';
import { cn } from '@/components/ui/cn';
import { FOCUS_RING } from '@/components/ui/button';
import { DISPLAY_STATES, type DisplayState } from '@/lib/dashboard/wire';
import { STATE_LABEL } from './state-badge';

/** States worth a chip even at zero; the rare ones appear only when they have tasks. */
const ALWAYS: readonly DisplayState[] = ['working', 'detached', 'input-required', 'completed', 'failed', 'canceled'];

/** Counts per state, each a filter (click again, or "all", to clear). */
export function StateChips({
  counts,
  total,
  selected,
  onSelect,
}: {
  counts: Partial<Record<DisplayState, number>> | undefined;
  total: number | undefined;
  selected: DisplayState | undefined;
  onSelect: (state: DisplayState | undefined) => void;
}) {
  const states = DISPLAY_STATES.filter((s) => ALWAYS.includes(s) || (counts?.[s] ?? 0) > 0);
  const chip = (key: string, label: string, count: number | undefined, active: boolean, onClick: () => void) => (
    <button
      key={key}
      type="button"
      aria-pressed={active}
      data-testid={`count-${key}`}
      onClick={onClick}
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full border px-3 py-1 text-xs font-medium',
        FOCUS_RING,
        active
          ? 'border-indigo-600 bg-indigo-600 text-white'
          : 'border-zinc-300 bg-white text-zinc-700 hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800',
      )}
    >
      {label}
      <span data-testid={`count-${key}-value`} className={cn('tabular-nums', active ? 'text-indigo-100' : 'text-zinc-500 dark:text-zinc-400')}>
        {count ?? '…'}
      </span>
    </button>
  );
  return (
    <div role="group" aria-label="Filter by state" className="flex flex-wrap gap-1.5">
      {chip('all', 'all', total, !selected, () => onSelect(undefined))}
      {states.map((s) => chip(s, STATE_LABEL[s], counts?.[s] ?? (counts ? 0 : undefined), selected === s, () => onSelect(selected === s ? undefined : s)))}
    </div>
  );
}
