/**
 * The engine's write path: every task change is committed through here and then published to
 * the event hub, so no live view can see an event that is not in the database.
 */
import { appendEvents, insertTask, type AppendOptions, type CommittedChange } from '../db/task-repo';
import type { NewEvent, NewTask, TaskPatch } from '../db/task-records';
import { taskSummaryChange } from '../protocol/task-events';
import { eventHub } from '../events/hub';
import type { Message } from '../protocol/types';
import { log } from '../log';

export async function createTaskRecord(task: NewTask, events: NewEvent[], messages: Message[] = []): Promise<CommittedChange> {
  const change = await insertTask(task, events, messages);
  eventHub().publish(change);
  return change;
}

/**
 * The row's `detached` flag follows from the events, by the rule the browser applies too
 * (`taskSummaryChange`): a detach sets it, a caller's new message clears it.
 */
function detachedPatch(events: NewEvent[]): TaskPatch {
  let patch: TaskPatch = {};
  for (const event of events) {
    const { detached } = taskSummaryChange(event);
    if (detached !== undefined) patch = detached ? { detached, detachedAt: new Date() } : { detached };
  }
  return patch;
}

export async function recordEvents(taskId: string, events: NewEvent[], opts: AppendOptions = {}): Promise<CommittedChange | null> {
  const change = await appendEvents(taskId, events, { ...opts, patch: { ...detachedPatch(events), ...opts.patch } });
  if (change) eventHub().publish(change);
  return change;
}

import type { TerminalState } from '../protocol/types';
export type { TerminalState };

export interface TerminalClaim {
  state: TerminalState;
  /** The status message (agent role) that explains the end. */
  message?: Message;
  /** Why it ended, for failures and cancels: "iteration budget exhausted", "interrupted: restart"... */
  reason?: string;
  metadata?: Record<string, unknown>;
  /** Extra events to append before the terminal status event, in the same transaction. */
  events?: NewEvent[];
}

/**
 * The one terminal claim (design §1 rule 3). A compare-and-set on the task row: the first
 * caller to move the task out of a non-terminal state wins, writes the result and the terminal
 * event, and publishes it. Every later claim returns null and changes nothing. Completion,
 * failure, cancel, grace expiry, shutdown and restart recovery all end tasks through here.
 */
export async function claimTerminal(taskId: string, claim: TerminalClaim): Promise<CommittedChange | null> {
  const metadata = claim.reason ? { ...claim.metadata, switchboard: { endReason: claim.reason } } : claim.metadata;
  const statusPayload = { message: claim.message, reason: claim.reason, metadata };
  const change = await recordEvents(
    taskId,
    [...(claim.events ?? []), { type: 'status', state: claim.state, payload: statusPayload }],
    {
      onlyIfNotTerminal: true,
      materializeArtifacts: true,
      messages: claim.message ? [claim.message] : [],
      patch: {
        state: claim.state,
        statusMessage: claim.message ?? null,
        endReason: claim.reason ?? null,
        endedAt: new Date(),
      },
    },
  );
  if (change) {
    log.info('task ended', { taskId, state: claim.state, reason: claim.reason, direction: change.task.direction });
  } else {
    log.debug('terminal claim lost', { taskId, attempted: claim.state, reason: claim.reason });
  }
  return change;
}
