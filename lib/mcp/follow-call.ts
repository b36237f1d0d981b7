/** The shared part of dispatch, reply and wait: follow the task for the call, with progress. */
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_WAIT_SECONDS } from './limits';
import { followTask } from './task-wait';
import { viewOf, type Cursor, type TaskState, type TaskView } from './task-view';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Progress notifications when the client asked for them (a progressToken): one per change. */
function progressReporter(extra: ToolExtra): ((task: TaskState) => Promise<void>) | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  return async (task) => {
    const message = `${task.state}${task.statusMessage ? `: ${task.statusMessage}` : ''} (${task.text.length} characters of output)`;
    await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: task.lastSeq, message } }).catch(() => undefined);
  };
}

export async function followForCall(taskId: string, extra: ToolExtra, opts: { since: Cursor; seconds?: number; until: 'change' | 'turn-end' }): Promise<TaskView> {
  const task = await followTask(taskId, {
    since: opts.since,
    seconds: opts.seconds ?? DEFAULT_WAIT_SECONDS,
    until: opts.until,
    signal: extra.signal,
    onNews: progressReporter(extra),
  });
  return viewOf(task, opts.since);
}

export function viewText(view: TaskView): string {
  const status = view.statusMessage ? `\nstatus: ${view.statusMessage}` : '';
  const output = view.output ? `\n--- output ---\n${view.output}` : '';
  return `task ${view.taskId}: ${view.state}${status}${output}\n\n${view.next}`;
}
