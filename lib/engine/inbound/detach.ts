/**
 * Detach, never fail. When a response window ends or a caller goes
 * away, the task keeps running: we record one `detached` event carrying instructions for
 * getting the result, and start the late-result grace, the bound on how long it may still run.
 */
import { findTask } from '../../db/task-repo';
import type { CommittedChange } from '../../db/task-repo';
import { claimTerminal, recordEvents } from '../core/task-writer';
import { agentText } from '../core/messages';
import { executions } from '../core/executions';
import { isTurnEndState } from '../../protocol/types';
import { log } from '../../log';
import { metrics } from '../../metrics/metrics';
import { taskSpanEvent } from '../../tracing/spans';

export type DetachReason = 'response window ended' | 'caller disconnected' | 'non-blocking request' | 'shutdown';

export const GRACE_EXCEEDED = 'late-result grace exceeded';

/**
 * Whether a blocking caller wants the artifacts committed before the window in its WORKING
 * answer (`message.metadata.switchboard.partialArtifacts: true`). Off by default:
 * clients that read artifacts first (Hermes) took the first chunk for the answer and never
 * learned the task goes on. tasks/get and streams deliver everything regardless.
 */
export function wantsPartialArtifacts(metadata: Record<string, unknown> | undefined): boolean {
  const sb = metadata?.switchboard;
  return typeof sb === 'object' && sb !== null && (sb as { partialArtifacts?: unknown }).partialArtifacts === true;
}

export function detachGuidance(taskId: string, reason: DetachReason, windowMs: number) {
  const text =
    `Task ${taskId} is still working (${reason}; it was not cancelled and will finish on its own). ` +
    'Get the result with tasks/get (v1.0: GetTask) or follow it with tasks/resubscribe ' +
    `(v1.0: SubscribeToTask), using task id ${taskId}.`;
  const metadata = {
    switchboard: {
      detached: true,
      reason,
      taskId,
      responseWindowMs: windowMs,
      retrieveWith: { v03: ['tasks/get', 'tasks/resubscribe'], v10: ['GetTask', 'SubscribeToTask'] },
    },
  };
  return { text, metadata };
}

export interface DetachOptions {
  reason: DetachReason;
  windowMs: number;
  graceMs: number;
}

/** Records the detach once (a no-op if already detached or the turn ended) and arms the grace. */
export async function detachTask(taskId: string, contextId: string, opts: DetachOptions): Promise<CommittedChange | null> {
  const guidance = detachGuidance(taskId, opts.reason, opts.windowMs);
  const message = agentText(taskId, contextId, guidance.text, guidance.metadata);
  const change = await recordEvents(
    taskId,
    [{ type: 'detached', state: 'working', payload: { reason: opts.reason, message, metadata: guidance.metadata, graceMs: opts.graceMs } }],
    {
      onlyIfStateIn: ['submitted', 'working'],
      onlyIfNotDetached: true,
    },
  );
  if (change) {
    log.info('task detached', { taskId, reason: opts.reason, graceMs: opts.graceMs });
    metrics().detaches.inc({ agent: change.task.agentSlug ?? '', reason: opts.reason });
    taskSpanEvent(taskId, 'a2a.task.detached', { reason: opts.reason, 'switchboard.grace_ms': opts.graceMs });
    armGrace(taskId, opts.graceMs);
  }
  return change;
}

function armGrace(taskId: string, graceMs: number, delayMs = graceMs): void {
  const execution = executions().get(taskId);
  if (!execution || execution.graceTimer) return;
  execution.graceTimer = setTimeout(() => void expireGrace(taskId, graceMs), delayMs);
  execution.graceTimer.unref?.();
}

/**
 * A detached task whose turn boot resumed (a restart lost its timer): the grace counts on from
 * the detach, so a restart never lengthens it; already over, it expires at once.
 */
export function rearmGrace(taskId: string, detachedAt: string, graceMs: number): void {
  armGrace(taskId, graceMs, Math.max(0, Date.parse(detachedAt) + graceMs - Date.now()));
}

async function expireGrace(taskId: string, graceMs: number): Promise<void> {
  const record = await findTask(taskId);
  if (!record || isTurnEndState(record.state)) return;
  const reason = GRACE_EXCEEDED;
  const won = await claimTerminal(taskId, {
    state: 'failed',
    reason,
    metadata: { graceMs },
    message: agentText(taskId, record.contextId, `Task failed: ${reason} (${graceMs / 1000} s after it detached).`),
  });
  if (won) {
    metrics().graceExpiries.inc({ agent: won.task.agentSlug ?? '' });
    executions().abort(taskId, reason);
  }
}

/** A subscriber attached to a detached task: recorded so the timeline shows who came back. */
export async function markReattached(taskId: string, via: string): Promise<void> {
  await recordEvents(taskId, [{ type: 'reattached', payload: { via } }], { onlyIfStateIn: ['submitted', 'working'] });
}
