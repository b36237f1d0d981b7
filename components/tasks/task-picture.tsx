'use client';
/**
 * The timeline picture above the event list: the task's phases as bars on a time axis with
 * their durations, artifact chunks as ticks, the response window W and the grace G as marks,
 * and the children's spans nested under the parent (delegation graph).
 */
import { Card, CardHeader } from '@/components/ui/card';
import type { ChildTask, TimelineEvent } from '@/lib/dashboard/wire';
import { taskPicture, type PhaseKind } from '@/lib/query/task-phases';
import { formatDuration } from './format';
import { useNow } from './use-now';

const WIDTH = 1000;
const ROW = 26;
const LABEL = 120;

const FILL: Record<PhaseKind, string> = {
  submitted: 'fill-zinc-400 dark:fill-zinc-500',
  working: 'fill-blue-500 dark:fill-blue-400',
  detached: 'fill-amber-500 dark:fill-amber-400',
  'input-required': 'fill-violet-500 dark:fill-violet-400',
  ended: 'fill-emerald-600 dark:fill-emerald-400',
};

const childFill = (state: string) =>
  state === 'completed' ? FILL.ended : state === 'failed' || state === 'rejected' ? 'fill-red-500 dark:fill-red-400' : state === 'input-required' ? FILL['input-required'] : FILL.working;

export function TaskPicture({ events, childTasks }: { events: TimelineEvent[]; childTasks: ChildTask[] }) {
  const now = useNow();
  const picture = now ? taskPicture(events, now) : null;
  if (!picture) return null;
  const span = Math.max(1, picture.endMs - picture.startMs);
  const x = (ms: number) => LABEL + ((Math.min(Math.max(ms, picture.startMs), picture.endMs) - picture.startMs) / span) * (WIDTH - LABEL - 10);
  const height = ROW * (2 + childTasks.length) + 18;
  const mark = (ms: number | null, label: string, testId: string) =>
    ms === null || ms > picture.endMs ? null : (
      <g data-testid={testId}>
        <line x1={x(ms)} x2={x(ms)} y1={4} y2={height - 16} className="stroke-zinc-700 dark:stroke-zinc-200" strokeDasharray="4 3" />
        <text x={x(ms) + 3} y={12} className="fill-zinc-700 text-[11px] dark:fill-zinc-200">{label}</text>
      </g>
    );
  return (
    <Card>
      <CardHeader title="Timeline picture" actions={<span className="text-xs text-zinc-500 dark:text-zinc-400">{formatDuration(span)}</span>} />
      <div className="overflow-x-auto px-2 py-2">
        <svg viewBox={`0 0 ${WIDTH} ${height}`} className="w-full min-w-[36rem]" role="img" aria-label="Task phases on a time axis" data-testid="task-picture">
          <text x={4} y={ROW + 12} className="fill-zinc-600 text-[12px] dark:fill-zinc-300">this task</text>
          {picture.phases.map((p) => (
            <g key={`${p.kind}-${p.startMs}`} data-testid="phase-bar" data-kind={p.kind}>
              <title>{`${p.kind}${p.state ? ` (${p.state})` : ''}: ${formatDuration(p.endMs - p.startMs)}`}</title>
              <rect x={x(p.startMs)} y={ROW} width={p.kind === 'ended' ? 4 : Math.max(2, x(p.endMs) - x(p.startMs))} height={ROW - 8} rx={2} className={FILL[p.kind]} />
              {p.kind !== 'ended' && x(p.endMs) - x(p.startMs) > 60 ? (
                <text x={x(p.startMs) + 4} y={ROW + 13} className="fill-white text-[11px]">{`${p.kind} ${formatDuration(p.endMs - p.startMs)}`}</text>
              ) : null}
            </g>
          ))}
          {picture.chunks.map((ms, i) => (
            <line key={i} data-testid="chunk-tick" x1={x(ms)} x2={x(ms)} y1={2 * ROW - 6} y2={2 * ROW} className="stroke-zinc-900 dark:stroke-zinc-100" />
          ))}
          {childTasks.map((c, i) => {
            const start = Date.parse(c.createdAt);
            const end = c.endedAt ? Date.parse(c.endedAt) : picture.endMs;
            const y = ROW * (2 + i) + 4;
            return (
              <g key={c.id} data-testid="child-bar">
                <title>{`${c.direction} ${c.peerName ?? c.agentSlug ?? c.peerUrl ?? ''} ${c.state}: ${formatDuration(end - start)}`}</title>
                <text x={14} y={y + 12} className="fill-zinc-600 text-[11px] dark:fill-zinc-300">↳ {(c.peerName ?? c.agentSlug ?? 'peer').slice(0, 14)}</text>
                <rect x={x(start)} y={y} width={Math.max(2, x(end) - x(start))} height={ROW - 12} rx={2} className={childFill(c.state)} />
              </g>
            );
          })}
          {mark(picture.windowAtMs, 'W', 'window-mark')}
          {mark(picture.graceEndsAtMs, 'G', 'grace-mark')}
          <line x1={LABEL} x2={WIDTH - 10} y1={height - 14} y2={height - 14} className="stroke-zinc-300 dark:stroke-zinc-700" />
          <text x={LABEL} y={height - 2} className="fill-zinc-500 text-[10px]">0</text>
          <text x={WIDTH - 10} y={height - 2} textAnchor="end" className="fill-zinc-500 text-[10px]">{formatDuration(span)}</text>
        </svg>
      </div>
      {picture.progress !== null ? <ProgressBar value={picture.progress} /> : null}
    </Card>
  );
}

export function ProgressBar({ value, compact = false }: { value: number; compact?: boolean }) {
  return (
    <div className={compact ? 'w-20' : 'px-4 pb-3'}>
      <div role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(value)} aria-label="Progress" data-testid="progress" className="h-2 rounded bg-zinc-200 dark:bg-zinc-800">
        <div className="h-2 rounded bg-indigo-600 dark:bg-indigo-400" style={{ width: `${value}%` }} />
      </div>
      {compact ? null : <div className="mt-1 text-xs text-zinc-500 tabular-nums dark:text-zinc-400">{Math.round(value)}% done</div>}
    </div>
  );
}
