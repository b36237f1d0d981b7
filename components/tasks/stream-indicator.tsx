import { LiveDot, type DotTone } from '@/components/ui/live-dot';
import type { LiveStatus } from '@/lib/query/live-stream';

const LABEL: Record<LiveStatus, { text: string; tone: DotTone }> = {
  connecting: { text: 'connecting…', tone: 'gray' },
  live: { text: 'live', tone: 'green' },
  reconnecting: { text: 'stream dropped — reconnecting…', tone: 'amber' },
  ended: { text: 'stream closed (task ended)', tone: 'gray' },
  paused: { text: 'paused', tone: 'gray' },
};

/** A dropped stream is shown as such, never confused with the task having ended. */
export function StreamIndicator({ status }: { status: LiveStatus }) {
  const l = LABEL[status];
  return (
    <span role="status" data-testid="stream-status" data-status={status} className="inline-flex items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-400">
      <LiveDot tone={l.tone} pulse={status === 'live' || status === 'reconnecting'} />
      {l.text}
    </span>
  );
}
