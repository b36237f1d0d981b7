'use client';
/**
 * The timeline picture above the event list: the task's phases as bars on a time axis with
 * their durations, artifact chunks as ticks, the response window W and the grace G as marks
 * (pinned to the edge with their time when outside the axis), and under it each child's own
 * phases on the same axis (delegation graph), live.
 */
import { Card, CardHeader } from '@/components/ui/card';
import type { ChildTask, TimelineEvent } from '@/lib/dashboard/wire';
import { axisEnd, markOnAxis, taskPicture, type Phase, type PhaseKind } from '@/lib/query/task-phases';
import { formatDuration } from './format';
import { useNow } from './use-now';

const WIDTH = 1000;
const ROW = 26;
const LABEL = 120;
const RIGHT = 10;

const FILL: Record<PhaseKind, string> = {
  submitted: 'fill-zinc-400 dark:fill-zinc-500',
  working: 'fill-blue-500 dark:fill-blue-400',
  detached: 'fill-amber-500 dark:fill-amber-400',
  'input-required': 'fill-violet-500 dark:fill-violet-400',
  ended: 'fill-emerald-600 dark:fill-emerald-400',
};

/** A child's row label: its peer or agent, else the last segment of the URL it went to. */
const childLabel = (c: ChildTask) => (c.peerName ?? c.agentSlug ?? c.peerUrl?.replace(/\/+$/, '').split('/').pop() ?? 'peer').slice(0, 14);

const endFill = (state: string | undefined) => (state === 'failed' || state === 'rejected' ? 'fill-red-500 dark:fill-red-400' : FILL.ended);

interface ChildRow {
  child: ChildTask;
  startMs: number;
  endMs: number;
  /** The child's own phases, once its events have loaded. */
  phases: Phase[] | null;
}

function childRows(childTasks: ChildTask[], childEvents: Map<string, TimelineEvent[]>, now: number): ChildRow[] {
  return childTasks.map((child) => {
    const events = childEvents.get(child.id);
    const own = events ? taskPicture(events, now) : null;
    const startMs = own?.startMs ?? Date.parse(child.createdAt);
    const endMs = own?.endMs ?? (child.endedAt ? Date.parse(child.endedAt) : now);
    return { child, startMs, endMs, phases: own?.phases ?? null };
  });
}

export function TaskPicture({ events, childTasks, childEvents }: { events: TimelineEvent[]; childTasks: ChildTask[]; childEvents: Map<string, TimelineEvent[]> }) {
  const now = useNow();
  const picture = now ? taskPicture(events, now) : null;
  if (!picture) return null;
  const rows = childRows(childTasks, childEvents, now);
  const startMs = picture.startMs;
  const endMs = axisEnd(picture, rows);
  const span = Math.max(1, endMs - startMs);
  const x = (ms: number) => LABEL + ((Math.min(Math.max(ms, startMs), endMs) - startMs) / span) * (WIDTH - LABEL - RIGHT);
  const height = ROW * (2 + rows.length) + 18;
  const bar = (p: Phase, y: number, h: number, testId: string) => (
    <g key={`${p.kind}-${p.startMs}`} data-testid={testId} data-kind={p.kind}>
      <title>{`${p.kind}${p.state ? ` (${p.state})` : ''}: ${formatDuration(p.endMs - p.startMs)}`}</title>
      <rect x={x(p.startMs)} y={y} width={p.kind === 'ended' ? 4 : Math.max(2, x(p.endMs) - x(p.startMs))} height={h} rx={2} className={p.kind === 'ended' ? endFill(p.state) : FILL[p.kind]} />
      {p.kind !== 'ended' && x(p.endMs) - x(p.startMs) > 60 ? (
        <text x={x(p.startMs) + 4} y={y + h - 5} className="fill-white text-[11px]">{`${p.kind} ${formatDuration(p.endMs - p.startMs)}`}</text>
      ) : null}
    </g>
  );
  // Each mark's label on its own line, so W and G pinned to the same edge stay readable.
  const mark = (ms: number | null, label: string, testId: string, labelY: number) => {
    const m = markOnAxis(ms, startMs, endMs);
    if (!m) return null;
    const at = x(m.atMs);
    // Outside the axis (G usually lies after an early end): pinned to the edge, with its time.
    const text = m.inView ? label : m.offsetMs > 0 ? `${label} at ${formatDuration(m.offsetMs)} ▸` : `◂ ${label}`;
    const anchor = m.inView ? 'start' : m.offsetMs > 0 ? 'end' : 'start';
    return (
      <g data-testid={testId} data-in-view={m.inView ? 'true' : 'false'}>
        <title>{`${label}: ${formatDuration(m.offsetMs)} after the start${m.inView ? '' : ' (outside the picture)'}`}</title>
        <line x1={at} x2={at} y1={4} y2={height - 16} className="stroke-zinc-700 dark:stroke-zinc-200" strokeDasharray={m.inView ? '4 3' : '1 3'} />
        <text x={m.inView ? at + 3 : anchor === 'end' ? at - 3 : at + 3} y={labelY} textAnchor={anchor} className="fill-zinc-700 text-[11px] dark:fill-zinc-200">{text}</text>
      </g>
    );
  };
  return (
    <Card>
      <CardHeader title="Timeline picture" actions={<span className="text-xs text-zinc-500 dark:text-zinc-400">{formatDuration(span)}</span>} />
      <div className="overflow-x-auto px-2 py-2">
        <svg viewBox={`0 0 ${WIDTH} ${height}`} className="w-full min-w-[36rem]" role="img" aria-label="Task phases on a time axis" data-testid="task-picture">
          <text x={4} y={ROW + 12} className="fill-zinc-600 text-[12px] dark:fill-zinc-300">this task</text>
          {picture.phases.map((p) => bar(p, ROW, ROW - 8, 'phase-bar'))}
          {picture.chunks.map((ms, i) => (
            <line key={i} data-testid="chunk-tick" x1={x(ms)} x2={x(ms)} y1={2 * ROW - 6} y2={2 * ROW} className="stroke-zinc-900 dark:stroke-zinc-100" />
          ))}
          {rows.map((r, i) => {
            const y = ROW * (2 + i) + 4;
            const c = r.child;
            return (
              <g key={c.id} data-testid="child-bar" data-child-id={c.id}>
                <title>{`${c.direction} ${c.peerName ?? c.agentSlug ?? c.peerUrl ?? ''} ${c.state}: ${formatDuration(r.endMs - r.startMs)}`}</title>
                <text x={14} y={y + 12} className="fill-zinc-600 text-[11px] dark:fill-zinc-300">↳ {childLabel(c)}</text>
                {r.phases
                  ? r.phases.map((p) => bar(p, y, ROW - 10, 'child-phase'))
                  : <rect x={x(r.startMs)} y={y} width={Math.max(2, x(r.endMs) - x(r.startMs))} height={ROW - 10} rx={2} className={FILL.submitted} />}
              </g>
            );
          })}
          {mark(picture.windowAtMs, 'W', 'window-mark', 11)}
          {mark(picture.graceEndsAtMs, 'G', 'grace-mark', 23)}
          <line x1={LABEL} x2={WIDTH - RIGHT} y1={height - 14} y2={height - 14} className="stroke-zinc-300 dark:stroke-zinc-700" />
          <text x={LABEL} y={height - 2} className="fill-zinc-500 text-[10px]">0</text>
          <text x={WIDTH - RIGHT} y={height - 2} textAnchor="end" className="fill-zinc-500 text-[10px]">{formatDuration(span)}</text>
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
