'use client';
import { useMemo } from 'react';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { cn } from '@/components/ui/cn';
import { Card, CardHeader } from '@/components/ui/card';
import { Pre } from '@/components/ui/pre';
import type { TimelineEvent } from '@/lib/dashboard/wire';
import { describeEvent, isPeerDetach } from '@/lib/dashboard/event-description';
import { formatClock, formatDuration } from './format';
import { timelineEntries, type TimelineEntry } from './timeline-entries';

function tone(event: TimelineEvent): BadgeTone {
  if (event.type === 'detached' || isPeerDetach(event)) return 'amber';
  if (event.type === 'reattached') return 'indigo';
  if (event.type === 'follow-error') return 'rose';
  if (event.type !== 'status') return 'gray';
  if (event.state === 'completed') return 'green';
  if (event.state === 'failed' || event.state === 'rejected') return 'red';
  if (event.state === 'input-required' || event.state === 'auth-required') return 'violet';
  return 'blue';
}

function When({ entry }: { entry: TimelineEntry }) {
  return (
    <div className="flex shrink-0 gap-2 text-xs text-zinc-500 tabular-nums sm:block sm:w-28 dark:text-zinc-400">
      <time dateTime={entry.at}>{formatClock(entry.at)}</time>
      {entry.sinceMs !== null ? <div className="text-zinc-400 dark:text-zinc-500">+{formatDuration(entry.sinceMs)}</div> : null}
    </div>
  );
}

function EventItem({ entry }: { entry: Extract<TimelineEntry, { kind: 'event' }> }) {
  const { event } = entry;
  const { title, detail } = describeEvent(event);
  const marker = event.type === 'detached' || event.type === 'reattached' || isPeerDetach(event);
  return (
    <li
      data-testid="timeline-entry"
      data-seq={event.seq}
      data-type={event.type}
      data-state={event.state ?? undefined}
      data-marker={marker ? (event.type === 'reattached' ? 'reattached' : 'detached') : undefined}
      className={cn(
        'flex flex-col gap-1 py-2 pr-3 sm:flex-row sm:gap-3',
        !marker && 'pl-3.5',
        marker && event.type === 'reattached' && 'border-l-2 border-indigo-400 bg-indigo-50/60 pl-3 dark:bg-indigo-950/30',
        marker && event.type !== 'reattached' && 'border-l-2 border-amber-400 bg-amber-50/60 pl-3 dark:bg-amber-950/30',
      )}
    >
      <When entry={entry} />
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone={tone(event)}>{event.type}</Badge>
          <span className="text-sm font-medium break-words">{title}</span>
          <span className="ml-auto text-xs text-zinc-400 tabular-nums">#{event.seq}</span>
        </div>
        {detail ? <p className="text-sm break-words whitespace-pre-wrap text-zinc-700 dark:text-zinc-300">{detail}</p> : null}
        <details className="text-xs">
          <summary className="cursor-pointer text-zinc-500 hover:text-zinc-800 dark:hover:text-zinc-200">raw event</summary>
          <Pre className="mt-1 max-h-64">{JSON.stringify(event, null, 2)}</Pre>
        </details>
      </div>
    </li>
  );
}

function ChunksItem({ entry }: { entry: Extract<TimelineEntry, { kind: 'chunks' }> }) {
  const span = Date.parse(entry.lastAt) - Date.parse(entry.at);
  return (
    <li data-testid="timeline-entry" data-type="artifact" data-seq-from={entry.fromSeq} data-seq-to={entry.toSeq} className="flex flex-col gap-1 py-2 pr-3 pl-3.5 sm:flex-row sm:gap-3">
      <When entry={entry} />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone="gray">artifact</Badge>
          <span className="text-sm font-medium">
            {entry.count} {entry.count === 1 ? 'chunk' : 'chunks'} of {entry.artifactIds.join(', ')} · {entry.chars.toLocaleString()} chars
            {entry.count > 1 ? ` over ${formatDuration(span)}` : ''}
            {entry.lastChunk ? ' · last chunk' : ''}
          </span>
          <span className="ml-auto text-xs text-zinc-400 tabular-nums">
            #{entry.fromSeq}
            {entry.toSeq !== entry.fromSeq ? `–${entry.toSeq}` : ''}
          </span>
        </div>
      </div>
    </li>
  );
}

/** Every event with its time and the time since the one before it. */
export function TaskTimeline({ events }: { events: TimelineEvent[] }) {
  const entries = useMemo(() => timelineEntries(events), [events]);
  return (
    <Card aria-labelledby="timeline-title">
      <CardHeader id="timeline-title" title={`Timeline · ${events.length} events`} />
      <ol className="divide-y divide-zinc-100 dark:divide-zinc-800" data-testid="timeline">
        {entries.map((entry) => (entry.kind === 'event' ? <EventItem key={entry.key} entry={entry} /> : <ChunksItem key={entry.key} entry={entry} />))}
      </ol>
    </Card>
  );
}
