/**
 * The engine's write path: every task change is committed through here and then published to
 * the event hub, so no live view can see an event that is not in the database.
 */
import { appendEvents, insertTask, type AppendOptions, type CommittedChange } from '../../db/task-repo';
import type { NewEvent, NewTask, TaskPatch } from '../../db/task-records';
import { eventJson } from '../../db/task-store';
import { applySummary, readsSummary, type SummaryFields } from '../../protocol/summary-rule';
import { eventHub } from '../../events/hub';
import { appPart } from '../../process-singleton';
import { taskReader } from '../../db/client';
import { getSettings } from '../../config/settings';
import type { Message } from '../../protocol/types';
import { log } from '../../log';
import { outputMeter, OUTPUT_LIMIT_EXCEEDED } from './output-limit';
import { executions } from './executions';
import { agentText } from './messages';
import { metrics, taskLabels, truncationKind } from '../../metrics/metrics';
import { endTaskSpan } from '../../tracing/spans';
import { chargeStoredBytes } from '../../quotas/caller-quotas';

export async function createTaskRecord(task: NewTask, events: NewEvent[], messages: Message[] = []): Promise<CommittedChange> {
  outputMeter().start(task.id, events);
  // The task's first place in publication order, taken before anything else can be written to
  // it: a turn may queue its end before this commits (decision 425), and the end's publication
  // must still follow the creation's.
  const publication = reservePublication(task.id);
  const change = await insertTask(task, events, messages).catch((err: unknown) => {
    publication.release();
    throw err;
  });
  await publication.publish(change, events);
  metrics().tasksCreated.inc(taskLabels(change.task));
  return change;
}

/** Appends events; artifact chunks over the task's output limit end it instead (and give null). */
export async function recordEvents(taskId: string, events: NewEvent[], opts: WriteOptions = {}): Promise<CommittedChange | null> {
  if (!(await outputMeter().admit(taskId, events))) {
    await failOverOutputLimit(taskId);
    return null;
  }
  return commit(taskId, events, opts);
}

/**
 * Artifact chunks that arrived together (a peer's stream read in one go), in one write when they
 * all fit under the output limit, which is nearly always. Otherwise one at a time, so the chunks
 * before the one that goes over are kept and the task ends as if each had come alone.
 */
export async function recordChunkRun(taskId: string, events: NewEvent[], opts: WriteOptions = {}): Promise<CommittedChange | null> {
  if (await outputMeter().admit(taskId, events)) return commit(taskId, events, opts);
  let change: CommittedChange | null = null;
  for (const event of events) if (!(change = await recordEvents(taskId, [event], opts))) return null;
  return change;
}

/** What the row's summary fields become: derived from the events by the one rule, never patched by hand. */
type SummaryKey = 'state' | 'statusMessage' | 'detached' | 'detachedAt' | 'endReason' | 'endedAt';

/** A write's options; its patch holds everything but the summary fields. */
export type WriteOptions = Omit<AppendOptions, 'patch'> & { patch?: Omit<TaskPatch, SummaryKey> };

/** The row's summary fields after `events` (lib/protocol/summary-rule.ts), as a row patch. */
function summaryPatch(events: NewEvent[], now: Date): TaskPatch {
  const at = now.toISOString();
  // A stream's chunks change no summary: the rule is applied only to the events it reads.
  const fields = events.reduce<Partial<SummaryFields>>((summary, event) => (readsSummary(event.type) ? applySummary(summary, event, at) : summary), {});
  const { detachedAt, endedAt, ...rest } = fields;
  return { ...rest, ...(detachedAt ? { detachedAt: now } : {}), ...(endedAt ? { endedAt: now } : {}) };
}

/**
 * Fault injection for the outbox test (tests/protocol/outbox-crash.test.ts), never set otherwise:
 * the process kills itself right after a task's end commits, before anything else hears of it.
 */
const CRASH_AFTER_END_COMMIT = process.env.SWITCHBOARD_TEST_CRASH_AFTER_END_COMMIT === '1';

/**
 * Every append goes through here (whichever store holds the tasks), so the row's summary is
 * always what the rule makes of the committed events.
 */
async function commit(taskId: string, events: NewEvent[], opts: WriteOptions): Promise<CommittedChange | null> {
  const change = await appendEvents(taskId, events, { ...opts, patch: { ...opts.patch, ...summaryPatch(events, new Date()) } });
  if (change && CRASH_AFTER_END_COMMIT && change.task.endedAt) process.kill(process.pid, 'SIGKILL');
  if (change) await reservePublication(taskId).publish(change, events);
  return change;
}

/**
 * Per task, the publication of its last change: the next one waits for it (commit order).
 * The app's, as the hub is: every route bundle's writes to one task queue here together.
 */
const publications = () => appPart('taskPublications', () => new Map<string, Promise<void>>());

/** A place in a task's publication order: publish a committed change in it, or release it unused. */
interface Publication {
  publish(change: CommittedChange, events: readonly NewEvent[]): Promise<void>;
  release(): void;
}

/**
 * Takes the task's next place in publication order (commit order: a write takes it when it is
 * queued or once it committed, before the task's next write). Publishing charges the owner, then
 * publishes once every earlier place was published or released. A charge is a round trip on
 * PostgreSQL (the shared counter) and two commits' charges can come back in either order;
 * publishing each when its own charge returned let a later event reach the hub first, and a
 * follower then skipped the earlier one. A charge that fails never holds a publication.
 */
function reservePublication(taskId: string): Publication {
  const publishing = publications();
  const previous = publishing.get(taskId) ?? Promise.resolve();
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  publishing.set(taskId, settled);
  const release = () => {
    settle();
    if (publishing.get(taskId) === settled) publishing.delete(taskId);
  };
  return {
    release,
    async publish(change, events) {
      const charged = chargeOwner(change, events).catch(() => undefined);
      try {
        await previous;
        await charged;
        await eventHub().publish(change);
      } finally {
        release();
      }
    },
  };
}

/**
 * What an inbound task stored counts against its owner's stored-bytes quota (lib/quotas): the
 * events' stored JSON, which holds the messages and artifacts. Counted before the change is
 * published, so the caller that sees it already sees its budget spent.
 */
async function chargeOwner(change: CommittedChange, events: readonly NewEvent[]): Promise<void> {
  const owner = change.task.direction === 'inbound' ? change.task.owner : null;
  if (!owner) return;
  let bytes = 0;
  for (const e of events) bytes += eventJson(e).length;
  await chargeStoredBytes(owner, bytes);
}

import type { TerminalState } from '../../protocol/types';
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
  /** The agent answered with `message` as a direct reply (A2A Message), not a task result. */
  directReply?: boolean;
}

/**
 * The one terminal claim. A compare-and-set on the task row: the first
 * caller to move the task out of a non-terminal state wins, writes the result and the terminal
 * event, and publishes it. Every later claim returns null and changes nothing. Completion,
 * failure, cancel, grace expiry, shutdown and restart recovery all end tasks through here.
 */
export async function claimTerminal(taskId: string, claim: TerminalClaim): Promise<CommittedChange | null> {
  if (!(await outputMeter().admit(taskId, claim.events ?? []))) return failOverOutputLimit(taskId);
  return writeClaim(taskId, claim);
}

async function writeClaim(taskId: string, claim: TerminalClaim): Promise<CommittedChange | null> {
  const metadata = claim.reason ? { ...claim.metadata, switchboard: { endReason: claim.reason } } : claim.metadata;
  const statusPayload = { message: claim.message, reason: claim.reason, metadata, ...(claim.directReply ? { reply: 'message' as const } : {}) };
  const change = await commit(
    taskId,
    [...(claim.events ?? []), { type: 'status', state: claim.state, payload: statusPayload }],
    {
      onlyIfNotTerminal: true,
      materializeArtifacts: true,
      messages: claim.message ? [claim.message] : [],
    },
  );
  if (change) {
    outputMeter().forget(taskId);
    countEnd(change, claim, metadata);
    endTaskSpan(taskId, claim.state, claim.reason);
    log.info('task ended', { taskId, state: claim.state, reason: claim.reason, direction: change.task.direction });
  } else {
    log.debug('terminal claim lost', { taskId, attempted: claim.state, reason: claim.reason });
  }
  return change;
}

/** The output limit ends the task (and stops its turn); the chunk that went over is dropped. */
async function failOverOutputLimit(taskId: string): Promise<CommittedChange | null> {
  const task = await taskReader().task(taskId);
  if (!task) return null;
  const limit = getSettings().maxTaskOutputBytes;
  const text = `${OUTPUT_LIMIT_EXCEEDED}: the task's artifacts would pass ${limit} bytes (SWITCHBOARD_MAX_TASK_OUTPUT_BYTES); what was produced before is kept`;
  const won = await writeClaim(taskId, {
    state: 'failed',
    reason: OUTPUT_LIMIT_EXCEEDED,
    message: agentText(taskId, String(task.contextId), text),
    metadata: { truncated: true, outputLimitBytes: limit },
  });
  if (won) executions().abort(taskId, OUTPUT_LIMIT_EXCEEDED);
  return won;
}

function countEnd(change: CommittedChange, claim: TerminalClaim, metadata: Record<string, unknown> | undefined): void {
  const m = metrics();
  const labels = taskLabels(change.task);
  m.tasksEnded.inc({ ...labels, state: claim.state });
  const kind = truncationKind(claim.reason, metadata);
  if (kind) m.truncations.inc({ agent: labels.agent || labels.peer, kind });
}

declare module '../../process-singleton' {
  interface AppParts {
    /** Publications in commit order, per task. */
    taskPublications: Map<string, Promise<void>>;
  }
}
