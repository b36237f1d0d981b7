'use client';
import { Button } from '@/components/ui/button';
import { LiveDot } from '@/components/ui/live-dot';
import type { LiveStatus } from '@/lib/query/live-stream';

const STATUS: Record<LiveStatus, { label: string; tone: 'green' | 'amber' | 'gray' }> = {
  connecting: { label: 'connecting…', tone: 'gray' },
  live: { label: 'live', tone: 'green' },
  reconnecting: { label: 'stream dropped — reconnecting…', tone: 'amber' },
  ended: { label: 'ended', tone: 'gray' },
  paused: { label: 'paused', tone: 'gray' },
};

/** Live/paused switch plus the feed's health, so a drop is visible as such. */
export function FeedToggle({ status, paused, onToggle }: { status: LiveStatus; paused: boolean; onToggle: () => void }) {
  const s = STATUS[status];
  return (
    <div className="flex items-center gap-2">
      <span role="status" data-testid="feed-status" data-status={status} className="inline-flex items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-400">
        <LiveDot tone={s.tone} pulse={status === 'live' || status === 'reconnecting'} />
        {s.label}
      </span>
      <Button size="sm" aria-pressed={!paused} onClick={onToggle} data-testid="live-toggle">
        {paused ? 'Resume live' : 'Pause'}
      </Button>
    </div>
  );
}
