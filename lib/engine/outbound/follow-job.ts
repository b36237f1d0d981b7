/**
 * One outbound turn being followed: the recorder writing into our task, the connection to the
 * peer, the abort signal (cancel/shutdown), and the follow-limit clock. `settle` turns what the
 * peer said into the end of the turn where it is one.
 */
import { errorMessage } from '../../log';
import { getTask } from '../../client/a2a-client';
import type { PeerConnection } from '../../peers/connect';
import { claimMessageReply, claimPeerEnd, FOLLOW_LIMIT_EXCEEDED } from './endings';
import type { RemoteRecorder, Step } from './remote-recorder';
import { linkedSignal } from '../../util/abortable';
import { isTerminalState, type StreamEvent } from '../../protocol/types';

export interface FollowJob {
  recorder: RemoteRecorder;
  conn: PeerConnection;
  /** Aborted by a cancel or at shutdown: stop quietly, write nothing more. */
  signal: AbortSignal;
  /** SWITCHBOARD_FOLLOW_LIMIT, counted from the turn's follow.startedAt. */
  followLimitMs: number;
}

export const taskOf = (job: FollowJob) => ({ id: job.recorder.taskId, contextId: job.recorder.contextId });

export interface LimitClock {
  /** Aborts with the job, or when the follow limit is reached. */
  signal: AbortSignal;
  expired(): boolean;
  remaining(): number;
  clear(): void;
}

export function followLimitClock(job: FollowJob): LimitClock {
  const deadline = Date.parse(job.recorder.follow.startedAt) + job.followLimitMs;
  const linked = linkedSignal([job.signal], { ms: Math.max(0, deadline - Date.now()), reason: () => new Error(FOLLOW_LIMIT_EXCEEDED) });
  return {
    signal: linked.signal,
    expired: () => Date.now() >= deadline,
    remaining: () => Math.max(0, deadline - Date.now()),
    clear: linked.dispose,
  };
}

/**
 * Before recording a terminal state seen on a stream, read the peer's final snapshot so the
 * stored result equals the peer's final task: chunks missed while reconnecting, and a reply the
 * peer re-rendered under a new artifactId (Hermes) replacing, never adding to, what it streamed.
 */
async function finalSnapshot(job: FollowJob, step: Extract<Step, { kind: 'terminal' }>): Promise<Extract<Step, { kind: 'terminal' }>> {
  if (step.fromSnapshot || !job.recorder.remoteTaskId) return step;
  try {
    const task = await getTask(job.conn, job.recorder.remoteTaskId, { timeoutMs: job.conn.timeoutMs, signal: job.signal });
    // A snapshot that has not caught up with the end yet only fills in; it removes nothing.
    await job.recorder.reconcileArtifacts(task.artifacts, isTerminalState(task.status.state));
    if (task.status.state === step.status.state) return { ...step, metadata: { ...task.metadata, ...step.metadata } };
  } catch (err) {
    await job.recorder.recordFollowError({ phase: 'final-snapshot', error: errorMessage(err) });
  }
  return step;
}

/**
 * Applies the events of one read of the peer's stream, in order; true when the turn is over.
 * A chunk that joins the open run is taken without a promise (RemoteRecorder.applyNow): a
 * relayed stream's reads hold dozens of chunks each (docs/decisions.md 413).
 */
export async function applyEvents(job: FollowJob, events: readonly StreamEvent[]): Promise<boolean> {
  for (const event of events) {
    const step = job.recorder.applyNow(event) ?? (await job.recorder.apply(event));
    if (step.kind !== 'continue' && (await settle(job, step))) return true;
  }
  return false;
}

/** True when the turn is over (ended, interrupted, or the task ended locally). */
export async function settle(job: FollowJob, step: Step): Promise<boolean> {
  // An end is claimed only after the chunks before it committed, or with them (a peer's end
  // read together with its last chunks: one commit; decision 351).
  if (step.kind === 'terminal') job.recorder.holdOpenRun();
  else if (step.kind !== 'continue') await job.recorder.flush();
  switch (step.kind) {
    case 'continue':
      return false;
    case 'ended-locally':
      return true;
    case 'interrupted':
      await job.recorder.saveFollow({ phase: 'input', answering: undefined });
      return true;
    case 'message':
      await claimMessageReply(taskOf(job), step.message);
      return true;
    case 'terminal': {
      const final = await finalSnapshot(job, step);
      await claimPeerEnd(taskOf(job), final.status, final.metadata, await job.recorder.takeHeldRun());
      return true;
    }
  }
}
