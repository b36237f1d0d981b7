import type { SelectHTMLAttributes } from 'react';
import { cn } from './cn';
import { FOCUS_RING } from './button';

export interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  invalid?: boolean;
}

export function Select({ invalid, className, ...props }: SelectProps) {
  return (
    <select
      aria-invalid={invalid || undefined}
      className={cn(
        'block h-9 w-full rounded-md border bg-white px-2.5 text-sm text-zinc-900 dark:bg-zinc-900 dark:text-zinc-100',
        invalid ? 'border-red-500' : 'border-zinc-300 dark:border-zinc-700',
        FOCUS_RING,
        className,
      )}
      {...props}
    />
  );
}
