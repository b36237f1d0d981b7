/**
 * `--follow` and `tasks watch`: follow a task with progress, stream its result to stdout, and
 * exit with the code of its ending. Ctrl-C only stops following (the task is never canceled).
 */
import { textOf, type Task } from '../protocol/types';
import type { TaskDetail } from '../dashboard/wire';
import type { ApiTarget } from './api';
import { EXIT, type ExitCode } from './exit-codes';
import { followTask } from './follow';
import { ProgressView, ResultWriter } from './follow-view';
import { note, printJson } from './output';

export interface WatchOptions {
  json?: boolean;
  /** Seconds the server may stay unreachable before we give up (exit 14). */
  reconnectLimit: number;
}

/**
 * A task's result: its artifacts' text; a task with none (an agent that answers in status
 * messages, as Gemini CLI's A2A server does) has the agent's final message as its result.
 */
export function resultText(detail: TaskDetail): string {
  const artifacts = detail.snapshot.artifacts ?? [];
  if (artifacts.length) return artifacts.map((a) => textOf(a.parts)).join('\n');
  return finalAgentText(detail.snapshot);
}

function finalAgentText(task: Task): string {
  const status = task.status.message;
  if (status?.role === 'agent' && textOf(status.parts)) return textOf(status.parts);
  const last = [...(task.history ?? [])].reverse().find((m) => m.role === 'agent' && textOf(m.parts));
  return last ? textOf(last.parts) : '';
}

function ending(detail: TaskDetail, code: ExitCode): string {
  const { id, state, endReason, statusText } = detail.task;
  if (code === EXIT.inputRequired) {
    return `task ${id} is ${state}${statusText ? `: ${statusText}` : ''}\nanswer it with: switchboard tasks reply ${id} "<text>" --follow`;
  }
  return `task ${id} ${state}${endReason ? `: ${endReason}` : ''} (exit ${code})`;
}

export async function watchTask(target: ApiTarget, taskId: string, opts: WatchOptions): Promise<ExitCode> {
  const stop = new AbortController();
  const onInterrupt = () => stop.abort();
  process.once('SIGINT', onInterrupt);
  const result = opts.json ? null : new ResultWriter(process.stdout);
  const view = new ProgressView(taskId, process.stderr, result, Boolean(process.stdout.isTTY && process.stderr.isTTY));
  view.line(`following task ${taskId} (dashboard: ${target.baseUrl}/tasks/${taskId})`);
  try {
    const outcome = await followTask(target, taskId, view, { signal: stop.signal, reconnectLimitMs: opts.reconnectLimit * 1000 });
    view.stop();
    result?.finish();
    if (!outcome) {
      note(`\nstopped following task ${taskId}; it keeps running.\nresume with: switchboard tasks watch ${taskId}`);
      if (opts.json) printJson({ taskId, following: false, exitCode: EXIT.interrupted });
      return EXIT.interrupted;
    }
    note(ending(outcome.detail, outcome.exitCode));
    if (opts.json) printJson({ task: outcome.detail.task, result: resultText(outcome.detail), exitCode: outcome.exitCode });
    return outcome.exitCode;
  } finally {
    view.stop();
    process.off('SIGINT', onInterrupt);
  }
}
