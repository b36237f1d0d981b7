import type { ReactNode } from 'react';

/**
 * A control's validity props for the Field with `id`: invalid while it has an error, described by
 * the error then, else by the hint (when the Field shows one).
 */
export function fieldState(id: string, error: unknown, hint: 'hint' | 'no hint' = 'hint') {
  return { invalid: Boolean(error), 'aria-describedby': error ? `${id}-error` : hint === 'hint' ? `${id}-hint` : undefined };
}

/** A label, its control, a hint and the error the API reported for this field. */
export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  children: ReactNode;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      {children}
      {hint && !error ? (
        <p id={`${id}-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} role="alert" data-testid={`${id}-error`} className="text-xs font-medium text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}
