import type { HTMLAttributes } from 'react';
import { cn } from './cn';

/** Preformatted text. Agent output always goes through here as a text node, never as HTML. */
export function Pre({ className, ...props }: HTMLAttributes<HTMLPreElement>) {
  return (
    <pre
      className={cn(
        'max-h-[28rem] overflow-auto rounded-md bg-zinc-50 p-3 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-zinc-800 dark:bg-zinc-950 dark:text-zinc-200',
        className,
      )}
      {...props}
    />
  );
}
