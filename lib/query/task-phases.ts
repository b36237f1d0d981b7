/**
 * The timeline picture's model, from a task's events: its phases (submitted, working, detached,
 * input-required, ended) as intervals, artifact chunks as instants, the response window W and
 * the grace G as marks, and the latest progress. Pure and browser-safe.
 *
 * Progress: a status update's message metadata `progress` (a number, 0–100), else the text
 * "N% done" that the built-in agents write.
 */
import type { TimelineEvent } from '@/lib/dashboard/wire';
import { taskSummaryChange } from '@/lib/protocol/summary-rule';

export type PhaseKind = 'submitted' | 'working' | 'detached' | 'input-required' | 'ended';

export interface Phase {
  kind: PhaseKind;
  startMs: number;
  endMs: number;
  /** The terminal state for 'ended'. */
  state?: string;
}

export interface TaskPicture {
  startMs: number;
  endMs: number;
  phases: Phase[];
  chunks: number[];
  windowAtMs: number | null;
  graceEndsAtMs: number | null;
  progress: number | null;
}

const TERMINAL = new Set(['completed', 'failed', 'canceled', 'rejected']);

interface Payload {
  message?: { parts?: { kind?: string; text?: string }[]; metadata?: Record<string, unknown> };
  metadata?: { switchboard?: { responseWindowMs?: unknown } };
  graceMs?: unknown;
}

const PERCENT_DONE = /(\d{1,3}(?:\.\d+)?)\s*% done/;

/** Progress (0–100) a status update carries, or null. */
export function progressOf(payload: Payload | undefined): number | null {
  const declared = payload?.message?.metadata?.progress;
  if (typeof declared === 'number' && Number.isFinite(declared)) return Math.min(100, Math.max(0, declared));
  const text = payload?.message?.parts?.map((p) => p.text ?? '').join(' ') ?? '';
  const m = PERCENT_DONE.exec(text);
  return m ? Math.min(100, Number(m[1])) : null;
}

function phaseFor(event: TimelineEvent, detached: boolean): PhaseKind | null {
  if (event.type === 'submitted') return 'submitted';
  if (event.type === 'detached') return 'detached';
  if (event.type !== 'status' || !event.state) return null;
  if (TERMINAL.has(event.state)) return 'ended';
  if (event.state === 'input-required' || event.state === 'auth-required') return 'input-required';
  if (event.state === 'working') return detached ? 'detached' : 'working';
  return null;
}

export function taskPicture(events: TimelineEvent[], nowMs: number): TaskPicture | null {
  if (!events.length) return null;
  const startMs = Date.parse(events[0].at);
  const phases: Phase[] = [];
  const chunks: number[] = [];
  let detached = false;
  let windowAtMs: number | null = null;
  let graceEndsAtMs: number | null = null;
  let progress: number | null = null;
  let ended: number | null = null;
  for (const event of events) {
    const at = Date.parse(event.at);
    const payload = event.payload as Payload | undefined;
    if (event.type === 'artifact') chunks.push(at);
    if (event.type === 'detached') {
      const w = payload?.metadata?.switchboard?.responseWindowMs;
      if (typeof w === 'number') windowAtMs = startMs + w;
      if (typeof payload?.graceMs === 'number') graceEndsAtMs = at + payload.graceMs;
    }
    // Whether the task is detached follows the one summary rule (a peer's message keeps it).
    detached = taskSummaryChange(event).detached ?? detached;
    if (event.type === 'status') progress = progressOf(payload) ?? progress;
    const kind = phaseFor(event, detached);
    if (!kind || ended !== null) continue;
    const last = phases[phases.length - 1];
    if (last?.kind === kind) continue;
    if (last) last.endMs = at;
    if (kind === 'ended') {
      ended = at;
      phases.push({ kind, startMs: at, endMs: at, state: event.state ?? undefined });
      if (event.state === 'completed') progress = progress === null ? null : 100;
    } else {
      phases.push({ kind, startMs: at, endMs: at });
    }
  }
  const endMs = ended ?? Math.max(nowMs, startMs);
  const open = phases[phases.length - 1];
  if (open && open.kind !== 'ended') open.endMs = endMs;
  return { startMs, endMs, phases, chunks, windowAtMs, graceEndsAtMs, progress };
}

/** Progress from a status line alone (the list row has only the text): "N% done", or null. */
export const progressFromText = (text: string | null | undefined): number | null => (text ? progressOf({ message: { parts: [{ kind: 'text', text }] } }) : null);

/** Where a mark (W, G) goes on an axis: at its time when in view, else pinned to the nearer edge. */
export interface AxisMark {
  atMs: number;
  inView: boolean;
  /** Time from the axis start (what the label shows when the mark is pinned). */
  offsetMs: number;
}

export function markOnAxis(ms: number | null, startMs: number, endMs: number): AxisMark | null {
  if (ms === null) return null;
  return { atMs: Math.min(Math.max(ms, startMs), endMs), inView: ms >= startMs && ms <= endMs, offsetMs: ms - startMs };
}

/** The picture's axis end: the task's end (or now), or a later child's end. */
export function axisEnd(picture: TaskPicture, children: { endMs: number }[]): number {
  return children.reduce((end, c) => Math.max(end, c.endMs), picture.endMs);
}
