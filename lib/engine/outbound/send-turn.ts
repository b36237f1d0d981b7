/**
 * Sending one turn's message to the peer, so that the peer names its task before any wait of
 * ours can be cut (a blocking call cut by our timeout on a v0.3 peer would lose the task: v0.3
 * JSON-RPC cannot list tasks to find it again):
 * - blocking and streaming: message/stream | SendStreamingMessage when the card offers streaming,
 *   recording every event as it comes (T is an idle timeout); else a non-blocking send;
 * - background: a non-blocking send (v0.3 blocking:false, v1.0 returnImmediately:true);
 * - a plain blocking send (waiting at most T) only for a peer that refuses both.
 * A peer answering WORKING (its window ended, or background) and our own timeout running out
 * are not failures: the caller follows the task afterwards.
 */
import { errorMessage } from '../../log';
import { sendMessage, streamMessage } from '../../client/a2a-client';
import { claimLocalFailure } from './endings';
import { applyEvents, settle, taskOf, type FollowJob } from './follow-job';
import { ClientTimeoutError, TransportError } from '../../client/http-transport';
import { RpcError, UnreadableStreamError } from '../../client/json-rpc';
import { SseLimitError } from '../../client/sse';
import type { NewEvent } from '../../db/task-records';
import type { DispatchMode } from '../../protocol/dispatch-modes';

/** What to do after the send: follow the known task, find it first (and why), or nothing (ended). */
export type AfterSend = 'follow' | 'done' | { locate: string };

/** The peer certainly did not take the message: refused it, or was never reached. */
function isRefusal(err: unknown): boolean {
  return err instanceof RpcError || (err instanceof TransportError && (err.notSent || err.status !== undefined));
}

async function sendFailed(job: FollowJob, err: unknown): Promise<AfterSend> {
  if (job.signal.aborted) return 'done';
  const taskKnown = job.recorder.remoteTaskId !== null;
  if (err instanceof ClientTimeoutError) {
    await job.recorder.recordRemote({ event: 'client-timeout', timeoutMs: err.timeoutMs, note: 'not a failure: the task is followed instead' });
    await job.recorder.recordDetached(`client timeout after ${err.timeoutMs / 1000} s`);
    return taskKnown ? 'follow' : { locate: `our client timeout (${err.timeoutMs / 1000} s) cut the send before the peer named its task` };
  }
  if (taskKnown) {
    // A follow-up the peer refused or never received: its task still waits for input, and
    // following it must record that again rather than wait for an answer that will not come.
    if (isRefusal(err)) await job.recorder.saveFollow({ answering: undefined });
    await job.recorder.recordFollowError({ phase: 'send', error: errorMessage(err) });
    return 'follow';
  }
  if (err instanceof RpcError) {
    await claimLocalFailure(taskOf(job), `peer rejected the request: ${err.message} (JSON-RPC ${err.code})`);
    return 'done';
  }
  if (isRefusal(err)) {
    // Refused before the peer took the message (unreachable, HTTP error): nothing to follow.
    await claimLocalFailure(taskOf(job), `dispatch failed: ${errorMessage(err)}`);
    return 'done';
  }
  if (err instanceof TransportError) {
    // The call failed after the message went out (a broken connection, an answer we cannot
    // read): the peer may well have the task.
    await job.recorder.recordFollowError({ phase: 'send', error: err.message });
    return { locate: `the send failed after the message went out, before the peer named its task (${err.message})` };
  }
  throw err;
}

/** Refusals of a non-blocking send that say "not this way" (the configuration), not "not at all". */
const NON_BLOCKING_REFUSED = new Set([-32600, -32602, -32004]);

async function sendOnce(job: FollowJob, blocking: boolean, onRefused?: (err: RpcError) => Promise<AfterSend>): Promise<AfterSend> {
  try {
    const answer = await sendMessage(job.conn, job.recorder.follow.message, blocking, { timeoutMs: job.conn.timeoutMs, signal: job.signal });
    const step = answer.kind === 'message' ? { kind: 'message' as const, message: answer } : await job.recorder.applySnapshot(answer);
    return (await settle(job, step)) ? 'done' : 'follow';
  } catch (err) {
    const refused = err instanceof RpcError && NON_BLOCKING_REFUSED.has(err.code) && !job.signal.aborted;
    return refused && onRefused ? onRefused(err) : sendFailed(job, err);
  }
}

/**
 * A non-blocking send learns the task id at once; following then gives the end a blocking call
 * would have waited for. A peer that refuses it gets a plain blocking send, the last resort: a
 * cut of that call is then recorded for what it is (the task is looked up, or contact is lost).
 */
async function sendNonBlocking(job: FollowJob): Promise<AfterSend> {
  return sendOnce(job, false, async (err) => {
    await job.recorder.recordRemote({ event: 'blocking-strategy', via: 'plain blocking send', reason: `the peer refused a non-blocking send (${errorMessage(err)})` });
    return sendOnce(job, true);
  });
}

/** The peer's stream cannot be read by us: a parser's limit, never a reason to fail its task. */
const isUnreadableStream = (err: unknown) => err instanceof UnreadableStreamError || err instanceof SseLimitError;

/**
 * The stream could not be read (a peer whose events are not JSON to us). Stop
 * streaming to this peer for the turn: a task it already named is followed by polling; before
 * that, the message goes again as a non-blocking send with the same messageId (a peer that
 * dedupes by it answers with the task the stream created), and that task is polled. Why is
 * recorded on the task.
 */
async function streamUnreadable(job: FollowJob, err: unknown): Promise<AfterSend> {
  job.conn = { ...job.conn, streaming: false };
  const known = job.recorder.remoteTaskId !== null;
  const via = known ? 'polling the task' : 'a non-blocking send with the same messageId, then polling';
  await job.recorder.recordRemote({ event: 'stream-unreadable', reason: errorMessage(err), via });
  return known ? 'follow' : sendNonBlocking(job);
}

async function sendStreaming(job: FollowJob): Promise<AfterSend> {
  try {
    for await (const events of streamMessage(job.conn, job.recorder.follow.message, { timeoutMs: job.conn.timeoutMs, signal: job.signal })) {
      if (await applyEvents(job, events)) return 'done';
    }
  } catch (err) {
    if (isUnreadableStream(err) && !job.signal.aborted) return streamUnreadable(job, err);
    const unsupported = err instanceof RpcError && (err.code === -32004 || err.code === -32601);
    if (!unsupported || job.recorder.remoteTaskId) return sendFailed(job, err);
    // Refused before any task existed: the peer does not stream after all.
    await job.recorder.recordRemote({ event: 'streaming-unsupported', note: `the peer refused to stream (${errorMessage(err)}); sending non-blocking and following instead` });
    return sendNonBlocking(job);
  }
  if (job.recorder.remoteTaskId) return 'follow';
  await claimLocalFailure(taskOf(job), 'dispatch failed: the peer closed the stream without naming a task');
  return 'done';
}

type Strategy = 'stream' | 'non-blocking send';

/**
 * How a blocking or streaming turn is sent. Either learns the peer's task id before any wait of
 * ours can be cut: it streams when the card offers it (the first event names the
 * task), else it sends non-blocking; both then follow to the end, which is the outcome a
 * blocking call would have returned.
 */
function strategyEvents(mode: DispatchMode, strategy: Strategy): NewEvent[] {
  if (mode === 'streaming') {
    return strategy === 'stream' ? [] : [{ type: 'remote', payload: { event: 'streaming-unsupported', note: "the peer's card does not offer streaming; sending non-blocking and following instead" } }];
  }
  const reason = strategy === 'stream' ? "the card offers streaming: the first event names the peer's task" : "the card offers no streaming: the answer names the peer's task at once";
  return [{ type: 'remote', payload: { event: 'blocking-strategy', via: strategy, reason } }];
}

/** What a turn records with its `sent` phase: how it is sent, for a peer that streams or not. */
export function sentEvents(mode: DispatchMode, streaming: boolean): NewEvent[] {
  return mode === 'background' ? [] : strategyEvents(mode, streaming ? 'stream' : 'non-blocking send');
}

/**
 * Sends the turn. `recorded`: the task was created with its `sent` phase and these events
 * already (a dispatch that connected before creating it), so nothing is written first.
 */
export async function sendTurn(job: FollowJob, recorded = false): Promise<AfterSend> {
  const mode = job.recorder.follow.mode;
  const strategy: Strategy = job.conn.streaming ? 'stream' : 'non-blocking send';
  // Written before sending: after a crash, 'sent' means "find the task", never "send again".
  if (!recorded && !(await job.recorder.saveFollow({ phase: 'sent' }, sentEvents(mode, job.conn.streaming)))) return 'done';
  if (mode === 'background') return sendOnce(job, false);
  return strategy === 'stream' ? sendStreaming(job) : sendNonBlocking(job);
}
