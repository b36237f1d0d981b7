/**
 * Start-up and shutdown of the engine: what a restart and a shutdown do to running tasks.
 * - Start: tasks left submitted/working by a crash cannot be resumed (their process is gone):
 *   they end FAILED `interrupted: restart` through the terminal claim, history intact. A
 *   `resumable` agent's turn (a relay's: its work goes on at the peer) was resumed before
 *   (resume-turn.ts), so it is running and left alone here.
 *   Input-required tasks wait for a message, so they stay as they are.
 * - SIGTERM: refuse new work, detach open calls, give running turns the drain time, then end
 *   the rest FAILED `interrupted: shutdown`.
 */
import { findTasksInStates } from '../../db/task-repo';
import { claimTerminal } from '../core/task-writer';
import { agentText } from '../core/messages';
import { executions } from '../core/executions';
import { log } from '../../log';
import { settledWithin } from '../../util/abortable';

export const INTERRUPTED_RESTART = 'interrupted: restart';
export const INTERRUPTED_SHUTDOWN = 'interrupted: shutdown';

export async function recoverInterruptedTasks(): Promise<number> {
  const stranded = await findTasksInStates(['submitted', 'working'], 'inbound');
  let ended = 0;
  for (const task of stranded) {
    if (executions().get(task.id)) continue;
    const won = await claimTerminal(task.id, {
      state: 'failed',
      reason: INTERRUPTED_RESTART,
      message: agentText(task.id, task.contextId, `Task failed: ${INTERRUPTED_RESTART} (Switchboard stopped while it ran; its execution could not be resumed).`),
    });
    if (won) ended++;
  }
  if (ended) log.warn('ended tasks interrupted by a restart', { count: ended, reason: INTERRUPTED_RESTART });
  return ended;
}

export function isAcceptingWork(): boolean {
  return executions().accepting;
}

/** `cutShort` ends the drain early (a second SIGTERM); the tasks and their children still end. */
export async function drainAndStop(drainMs: number, cutShort?: AbortSignal): Promise<void> {
  const registry = executions();
  registry.accepting = false;
  registry.shutdown.abort('shutdown'); // open calls and streams detach and answer now
  // Turns that survive a restart (relays: the work goes on at the peer) stop at once, unclaimed.
  for (const execution of registry.all()) if (execution.agent?.resumable) execution.controller.abort('shutdown: resumed at the next start');
  const running = registry.all().filter((e) => !e.agent?.resumable);
  log.info('shutdown: draining running tasks', { running: running.length, drainMs });
  const cut = new Promise<void>((resolve) => (cutShort?.aborted ? resolve() : cutShort?.addEventListener('abort', () => resolve(), { once: true })));
  await settledWithin(Promise.race([Promise.allSettled(running.map((e) => e.done)), cut]), drainMs);
  for (const execution of registry.all()) {
    if (execution.agent?.resumable) continue;
    const won = await claimTerminal(execution.taskId, {
      state: 'failed',
      reason: INTERRUPTED_SHUTDOWN,
      message: agentText(execution.taskId, execution.contextId, `Task failed: ${INTERRUPTED_SHUTDOWN} (not finished within the ${drainMs / 1000} s drain time).`),
    });
    if (won) execution.controller.abort(INTERRUPTED_SHUTDOWN);
  }
  await settledWithin(Promise.allSettled(registry.all().map((e) => e.done)), 5_000);
}
