'use client';
import { cn } from '@/components/ui/cn';
import { DISPATCH_MODES, type DispatchMode } from '@/lib/protocol/dispatch-modes';

const HELP: Record<DispatchMode, string> = {
  blocking: 'waits for the end: streams (or sends non-blocking) so the task is known, then follows it',
  streaming: 'message/stream; events as they happen',
  background: 'non-blocking send; the task is followed in the background',
};

/** A radio group: arrow keys move between modes, as for any native radio set. */
export function ModePicker({ value, onChange, error }: { value: DispatchMode; onChange: (m: DispatchMode) => void; error?: string | null }) {
  return (
    <fieldset className="space-y-1" aria-describedby={error ? 'mode-error' : undefined}>
      <legend className="text-sm font-medium text-zinc-800 dark:text-zinc-200">Mode</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {DISPATCH_MODES.map((mode) => (
          <label
            key={mode}
            className={cn(
              'flex cursor-pointer flex-col rounded-md border px-3 py-2 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-500',
              value === mode ? 'border-indigo-600 bg-indigo-50 dark:bg-indigo-950' : 'border-zinc-300 dark:border-zinc-700',
            )}
          >
            <span className="flex items-center gap-2 font-medium">
              <input type="radio" name="mode" value={mode} checked={value === mode} onChange={() => onChange(mode)} className="accent-indigo-600" />
              {mode}
            </span>
            <span className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">{HELP[mode]}</span>
          </label>
        ))}
      </div>
      {error ? (
        <p id="mode-error" role="alert" className="text-xs font-medium text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
