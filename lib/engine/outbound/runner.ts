/**
 * Runs an outbound task from wherever it stands (Task.follow.phase): read the card, send the
 * turn, find the peer's task if the send ended without naming it, follow it to the end. New
 * dispatches, follow-up messages and restarts all go through here, so there is one path.
 */
import { findTask } from '../../db/task-repo';
import type { TaskRecord } from '../../db/task-records';
import { loadTask } from '../core/snapshot';
import { getSettings } from '../../config/settings';
import { isTerminalState } from '../../protocol/types';
import { log, errorMessage } from '../../log';
import { connect, reconnect, type PeerConnection } from '../../peers/connect';
import { claimLocalFailure } from './endings';
import { ClientError } from '../../protocol/client-error';
import { outboundFollowers } from './follow-registry';
import type { FollowJob } from './follow-job';
import { followRemoteTask, locateRemoteTask } from './follow-remote-task';
import { readFollowState, type FollowState } from './follow-state';
import { RemoteRecorder } from './remote-recorder';
import { resolveTarget, type ResolvedTarget } from '../../peers/resolve';
import { sendTurn, type AfterSend } from './send-turn';
import { resumeTaskSpan } from '../../tracing/spans';

export interface RunOptions {
  /** Started by resumeOutboundFollowing after a restart. */
  resumed?: boolean;
  /**
   * The target the dispatch resolved a moment ago: its first run uses it instead of resolving
   * the peer again (a restart or a later run resolves afresh: auth may have changed).
   */
  target?: ResolvedTarget;
  /**
   * The dispatch connected before creating the task (a relay's turn, with the peer's recent
   * card) and created it in its `sent` phase: the record, its follow state and the connection,
   * so the message goes out at once, with nothing read or written first (decision 352).
   */
  created?: { record: TaskRecord; follow: FollowState; conn: PeerConnection };
}

/** Auth and timeout come from the peer as it is now; a deleted peer leaves its URL, no auth. */
export async function resolveForTask(follow: FollowState, record: TaskRecord): Promise<ResolvedTarget> {
  try {
    return await resolveTarget(follow.target);
  } catch (err) {
    const url = follow.endpoint ?? record.peerUrl;
    if (!(err instanceof ClientError && err.code === 'unknown_peer' && url)) throw err;
    log.warn('peer of an outbound task is gone; following it by URL without credentials', { taskId: record.id, peer: follow.target.peer, url });
    return resolveTarget({ url, timeoutSeconds: follow.target.timeoutSeconds });
  }
}

export async function openRecorder(record: TaskRecord, follow: FollowState): Promise<RemoteRecorder> {
  // A task that has not connected yet has recorded nothing of the peer's: no artifacts to read.
  const snapshot = follow.phase === 'connect' ? null : await loadTask(record.id, { historyLength: 0 });
  return new RemoteRecorder(record.id, record.contextId, record.remoteTaskId, follow, snapshot?.artifacts ?? []);
}

async function openConnection(recorder: RemoteRecorder, target: ResolvedTarget, signal: AbortSignal): Promise<PeerConnection | null> {
  const follow = recorder.follow;
  if (follow.phase !== 'connect' && follow.version && follow.endpoint) {
    return reconnect(target, { version: follow.version, endpoint: follow.endpoint, streaming: follow.streaming ?? false });
  }
  try {
    const { conn, warning } = await connect(target, { prefer: follow.prefer, signal, maxCardAgeMs: follow.maxCardAgeMs });
    const events = [
      { type: 'status' as const, state: 'working' as const, payload: { connected: { version: conn.version, endpoint: conn.endpoint, streaming: conn.streaming } } },
      ...(warning ? [{ type: 'remote' as const, payload: { event: 'timing-warning', warning } }] : []),
    ];
    const changes = { version: conn.version, endpoint: conn.endpoint, streaming: conn.streaming };
    const patch = { peerUrl: conn.endpoint };
    // A first send writes 'sent' before the message goes out: the connection goes in that commit.
    if (follow.phase === 'connect') {
      recorder.stageFollow({ ...changes, phase: 'send' }, events, patch);
      return conn;
    }
    return (await recorder.saveFollow(changes, events, patch)) ? conn : null;
  } catch (err) {
    if (!signal.aborted) await claimLocalFailure({ id: recorder.taskId, contextId: recorder.contextId }, `dispatch failed: ${errorMessage(err)}`);
    return null;
  }
}

/** Sends and follows with what is open, and waits for the follower's pipelined chunks. */
async function runJob(record: TaskRecord, recorder: RemoteRecorder, opened: PeerConnection, signal: AbortSignal, follow: FollowState, opts: RunOptions): Promise<void> {
  const conn: PeerConnection = { ...opened, trace: { taskId: record.id, context: record.traceContext } };
  const job: FollowJob = { recorder, conn, signal, followLimitMs: getSettings().followLimitMs };
  try {
    await sendAndFollow(job, follow, opts);
  } finally {
    await recorder.flush(); // the follower is done only once its pipelined chunks are
  }
}

async function runOutbound(taskId: string, signal: AbortSignal, opts: RunOptions): Promise<void> {
  if (opts.created) {
    const { record, follow, conn } = opts.created;
    return runJob(record, new RemoteRecorder(record.id, record.contextId, null, follow, []), conn, signal, follow, opts);
  }
  const record = await findTask(taskId);
  if (!record || record.direction !== 'outbound' || isTerminalState(record.state)) return;
  const follow = readFollowState(record);
  if (!follow) {
    await claimLocalFailure(record, 'dispatch failed: the task has no follow state', 'it cannot be resumed');
    return;
  }
  if (follow.phase === 'input') return;
  const recorder = await openRecorder(record, follow);
  if (opts.resumed) await recorder.recordRemote({ event: 'resumed', phase: follow.phase });
  // A follow resumed after a restart continues the trace stored on the task.
  if (opts.resumed) resumeTaskSpan({ taskId, contextId: record.contextId, direction: 'outbound', target: record.peerName ?? record.peerUrl ?? '', parent: record.traceContext });
  const opened = await openConnection(recorder, opts.target ?? (await resolveForTask(follow, record)), signal);
  if (opened) await runJob(record, recorder, opened, signal, follow, opts);
}

async function sendAndFollow(job: FollowJob, follow: FollowState, opts: RunOptions): Promise<void> {
  const recorder = job.recorder;
  let next: AfterSend;
  if (opts.created) next = await sendTurn(job, true);
  else if (follow.phase === 'connect' || follow.phase === 'send') next = await sendTurn(job);
  else next = recorder.remoteTaskId ? 'follow' : { locate: opts.resumed ? 'restarted after sending, before the peer named its task' : 'the send ended before the peer named its task' };
  const locating = typeof next === 'object';
  if (typeof next === 'object') next = (await locateRemoteTask(job, next.locate)) ? 'follow' : 'done';
  if (next === 'follow') await followRemoteTask(job, { getFirst: opts.resumed === true || locating });
}

/**
 * Starts (in the background) the work on an outbound task unless it is already running. It goes
 * on whether or not the HTTP caller stays. An unexpected error ends the task FAILED with the
 * reason, rather than leaving it silently stuck.
 */
export function startOutbound(taskId: string, opts: RunOptions = {}): boolean {
  const followers = outboundFollowers();
  if (followers.has(taskId)) {
    // The previous turn's follower is finishing (e.g. it just recorded input-required and a
    // follow-up came at once): start right after it, never alongside.
    void followers.settled(taskId).then(() => startOutbound(taskId, opts));
    return false;
  }
  return followers.start(taskId, async (signal) => {
    try {
      await runOutbound(taskId, signal, opts);
    } catch (err) {
      if (signal.aborted) return;
      log.error('outbound task failed unexpectedly', { taskId, error: errorMessage(err) });
      const record = await findTask(taskId).catch(() => null);
      if (record) await claimLocalFailure(record, `internal error while following: ${errorMessage(err)}`).catch(() => false);
    }
  });
}
