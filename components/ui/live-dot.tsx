import { cn } from './cn';

export type DotTone = 'green' | 'amber' | 'gray' | 'red';

const TONES: Record<DotTone, string> = {
  green: 'bg-emerald-500',
  amber: 'bg-amber-500',
  gray: 'bg-zinc-400',
  red: 'bg-red-500',
};

/** A small status light; `pulse` for something happening right now. */
export function LiveDot({ tone, pulse }: { tone: DotTone; pulse?: boolean }) {
  return (
    <span aria-hidden className="relative inline-flex size-2.5">
      {pulse ? <span className={cn('absolute inline-flex size-full animate-ping rounded-full opacity-60', TONES[tone])} /> : null}
      <span className={cn('relative inline-flex size-2.5 rounded-full', TONES[tone])} />
    </span>
  );
}
