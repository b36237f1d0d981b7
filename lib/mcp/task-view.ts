/**
 * What an MCP tool tells a model about one task: its state, the latest status message (the
 * agent's progress), the output added since the caller's cursor (bounded), and in plain words
 * what to call next. A task that outlives a call is never lost: `next` names the tool and id.
 */
import { z } from 'zod';
import { loadTaskDetail } from '../dashboard/task-detail';
import { isTerminalState, isTurnEndState, textOf, type Artifact } from '../protocol/types';
import { MAX_OUTPUT_CHARS, MAX_WAIT_SECONDS } from './limits';
import { ELLIPSIS } from '../protocol/wide-chars';

/** Where a caller is in a task: the last event seq it saw and how much output it has read. */
export interface Cursor {
  seq: number;
  chars: number;
}

export const START: Cursor = { seq: 0, chars: 0 };

export const CursorSchema = z
  .string()
  .max(40)
  .regex(/^\d{1,15}\.\d{1,15}$/, 'expected the cursor a previous dispatch, reply or wait result returned (like "12.3456")')
  .transform((text): Cursor => {
    const [seq, chars] = text.split('.').map(Number);
    return { seq, chars };
  });

export const formatCursor = (c: Cursor) => `${c.seq}.${c.chars}`;

export const TaskViewShape = {
  taskId: z.string(),
  state: z.string().describe('the A2A task state'),
  done: z.boolean().describe('true once the task ended (completed, failed, canceled, rejected)'),
  needsInput: z.boolean().describe('true while the task waits for an answer (use reply)'),
  statusMessage: z.string().nullable().describe("the latest status message: the agent's progress or question"),
  endReason: z.string().nullable(),
  output: z.string().describe('the result text added since the cursor you passed (all of it up to a bound)'),
  outputChars: z.number().int().describe('characters of result text so far'),
  moreOutput: z.boolean().describe('true when output was cut at the bound: call wait again with the new cursor'),
  cursor: z.string().describe('pass as `since` to the next wait'),
  next: z.string().describe('what to do next, in words'),
};
export type TaskView = z.infer<z.ZodObject<typeof TaskViewShape>>;

/** All text of the artifacts, in order: the result the CLI prints and checks. */
export function resultTextOf(artifacts: readonly Artifact[] | undefined): string {
  return (artifacts ?? []).map((a) => textOf(a.parts)).join('\n');
}

const MAX_STATUS_CHARS = 2_000;

export interface TaskState {
  taskId: string;
  state: string;
  lastSeq: number;
  statusMessage: string | null;
  endReason: string | null;
  text: string;
}

/** The task as stored now, or null when there is no such task. */
export async function readTaskState(taskId: string): Promise<TaskState | null> {
  const detail = await loadTaskDetail(taskId);
  if (!detail) return null;
  const status = detail.task.statusText || textOf(detail.snapshot.status.message?.parts) || null;
  return {
    taskId,
    state: detail.task.state,
    lastSeq: detail.task.lastSeq,
    statusMessage: status ? status.slice(0, MAX_STATUS_CHARS) : null,
    endReason: detail.task.endReason,
    text: resultTextOf(detail.snapshot.artifacts),
  };
}

/** True when the task has something the cursor has not seen, or the turn is over. */
export function hasNews(task: TaskState, since: Cursor): boolean {
  return isTurnEndState(task.state) || task.lastSeq > since.seq || task.text.length > since.chars;
}

function nextStep(view: Omit<TaskView, 'next'>): string {
  const id = JSON.stringify(view.taskId);
  if (view.moreOutput) return `The output continues: call wait with {"taskId":${id},"since":"${view.cursor}"} for the next part (it answers at once).`;
  if (view.done) return `Task ${view.taskId} ended ${view.state}${view.endReason ? ` (${view.endReason})` : ''}. The output above completes its result.`;
  if (view.needsInput) return `Task ${view.taskId} is waiting for your answer${view.statusMessage ? `: "${view.statusMessage}"` : ''}. Answer with reply {"taskId":${id},"text":"${ELLIPSIS}"}.`;
  return (
    `Task ${view.taskId} is still running (${view.state}); it is not lost and needs no new dispatch. ` +
    `Call wait with {"taskId":${id},"since":"${view.cursor}"} to follow it: wait answers as soon as it changes or ends, or after up to ${MAX_WAIT_SECONDS} s.`
  );
}

/** The view of `task` for a caller at `since`: only the output it has not read, bounded. */
export function viewOf(task: TaskState, since: Cursor): TaskView {
  const from = Math.min(since.chars, task.text.length);
  const output = task.text.slice(from, from + MAX_OUTPUT_CHARS);
  const chars = from + output.length;
  const base = {
    taskId: task.taskId,
    state: task.state,
    done: isTerminalState(task.state),
    needsInput: isTurnEndState(task.state) && !isTerminalState(task.state),
    statusMessage: task.statusMessage,
    endReason: task.endReason,
    output,
    outputChars: task.text.length,
    moreOutput: chars < task.text.length,
    cursor: formatCursor({ seq: task.lastSeq, chars }),
  };
  return { ...base, next: nextStep(base) };
}
