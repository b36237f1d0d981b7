/**
 * The one rule for how a task's events make its summary (state, status message, detached, end).
 * The writer derives the row's summary fields from the events it commits (lib/engine/core/task-writer.ts),
 * the browser applies the rule to its cached detail (lib/query/task-reducer.ts) and the command
 * line to what it shows while following (lib/cli/follow-view.ts), so none of them can disagree;
 * tests/engine/summary-rule.test.ts runs random event sequences through all of them.
 * Client-safe: types and pure functions only.
 */
import type { TaskEventBody, TimelineEvent } from './task-events';
import { messageText } from './message-text';
import type { Message, TaskState } from './types';
import { isTerminalState } from './types';
import { ELLIPSIS } from './wide-chars';

/** How one event changes a task's summary; absent fields stay as they were. */
export interface TaskSummaryChange {
  state?: TaskState;
  detached?: boolean;
  /** The status message now shown; null clears it. */
  statusMessage?: Message | null;
  /** Set when the event ends the task. */
  ended?: { reason: string | null };
}

export type SummaryEvent = (TaskEventBody | TimelineEvent) & { state?: string | null };

/**
 * A status is the task's whole status (as in A2A: a TaskStatus replaces the one before), so it
 * sets the state, its message (none clears the old one) and, when terminal, the end. A detach
 * marks the task detached (still working) and shows its guidance message when it has one. A
 * caller's message (inbound continue or outbound follow-up) starts a new turn: the task is no
 * longer detached and the old status message goes. A message the peer sent (`remote`) is not a
 * new turn and changes nothing.
 */
export function taskSummaryChange(event: SummaryEvent): TaskSummaryChange {
  switch (event.type) {
    case 'status': {
      if (!event.state) return {};
      const state = event.state as TaskState;
      return {
        state,
        statusMessage: event.payload.message ?? null,
        ...(isTerminalState(state) ? { ended: { reason: event.payload.reason ?? null } } : {}),
      };
    }
    case 'detached':
      return {
        detached: true,
        ...(event.state ? { state: event.state as TaskState } : {}),
        ...(event.payload.message ? { statusMessage: event.payload.message } : {}),
      };
    case 'message':
      return event.payload.remote ? {} : { detached: false, statusMessage: null };
    default:
      return {};
  }
}

/** The event types taskSummaryChange reads; any other changes nothing (artifact chunks, notes). */
const SUMMARY_EVENT_TYPES: ReadonlySet<string> = new Set(['status', 'detached', 'message']);

/** Whether an event of this type can change a summary: the writer skips the rest (a stream's chunks). */
export const readsSummary = (type: string): boolean => SUMMARY_EVENT_TYPES.has(type);

/** The summary fields of a task, as the row holds them (times as ISO text). */
export interface SummaryFields {
  state: TaskState;
  statusMessage: Message | null;
  detached: boolean;
  detachedAt: string | null;
  endReason: string | null;
  endedAt: string | null;
}

/**
 * Applies one event, committed at `at`, to a summary. From `{}` it gives only what the event
 * changes (the writer's row patch); from a whole summary, the summary after it.
 */
export function applySummary<S extends Partial<SummaryFields>>(summary: S, event: SummaryEvent, at: string): S {
  const change = taskSummaryChange(event);
  const next: S = { ...summary };
  if (change.state) next.state = change.state;
  if (change.statusMessage !== undefined) next.statusMessage = change.statusMessage;
  if (change.detached === true) Object.assign(next, { detached: true, detachedAt: at });
  if (change.detached === false) next.detached = false;
  if (change.ended) Object.assign(next, { endedAt: at, endReason: change.ended.reason });
  return next;
}

/** Only what one event changes (committed at `at`). */
export const summaryChangeOf = (event: SummaryEvent, at: string): Partial<SummaryFields> => applySummary<Partial<SummaryFields>>({}, event, at);

const STATUS_CHARS = 240;

/** The status message as one line of at most 240 characters: what lists, feeds and the CLI show. */
export function statusTextOf(message: unknown): string {
  const flat = messageText(message).replace(/\s+/g, ' ').trim();
  return flat.length > STATUS_CHARS ? `${flat.slice(0, STATUS_CHARS - 1)}${ELLIPSIS}` : flat;
}
