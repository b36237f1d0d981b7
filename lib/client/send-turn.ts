/**
 * Sending one turn's message to the peer, by mode:
 * - blocking: message/send | SendMessage, waiting at most our client timeout T;
 * - streaming: message/stream | SendStreamingMessage, recording every event as it comes
 *   (T is then an idle timeout); a peer without streaming gets a blocking send;
 * - background: a non-blocking send (v0.3 blocking:false, v1.0 returnImmediately:true).
 * A peer answering WORKING (its window ended, or background) and our own timeout running out
 * are not failures: the caller follows the task afterwards.
 */
import { errorMessage } from '../log';
import { sendMessage, streamMessage } from './a2a-client';
import { claimLocalFailure } from './endings';
import { settle, taskOf, type FollowJob } from './follow-job';
import { ClientTimeoutError, TransportError } from './http-transport';
import { RpcError } from './json-rpc';

/** What to do after the send: follow the known task, find it first, or nothing (ended). */
export type AfterSend = 'follow' | 'locate' | 'done';

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
    return taskKnown ? 'follow' : 'locate';
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
    // The connection broke after the message went out: the peer may well have the task.
    await job.recorder.recordFollowError({ phase: 'send', error: err.message });
    return 'locate';
  }
  throw err;
}

async function sendOnce(job: FollowJob, blocking: boolean): Promise<AfterSend> {
  try {
    const answer = await sendMessage(job.conn, job.recorder.follow.message, blocking, { timeoutMs: job.conn.timeoutMs, signal: job.signal });
    const step = answer.kind === 'message' ? { kind: 'message' as const, message: answer } : await job.recorder.applySnapshot(answer);
    return (await settle(job, step)) ? 'done' : 'follow';
  } catch (err) {
    return sendFailed(job, err);
  }
}

async function sendStreaming(job: FollowJob): Promise<AfterSend> {
  try {
    for await (const event of streamMessage(job.conn, job.recorder.follow.message, { timeoutMs: job.conn.timeoutMs, signal: job.signal })) {
      if (await settle(job, await job.recorder.apply(event))) return 'done';
    }
  } catch (err) {
    const unsupported = err instanceof RpcError && (err.code === -32004 || err.code === -32601);
    if (!unsupported || job.recorder.remoteTaskId) return sendFailed(job, err);
    // Refused before any task existed: the peer does not stream after all.
    await job.recorder.recordRemote({ event: 'streaming-unsupported', note: `the peer refused to stream (${errorMessage(err)}); sending a blocking message instead` });
    return sendOnce(job, true);
  }
  if (job.recorder.remoteTaskId) return 'follow';
  await claimLocalFailure(taskOf(job), 'dispatch failed: the peer closed the stream without naming a task');
  return 'done';
}

export async function sendTurn(job: FollowJob): Promise<AfterSend> {
  // Written before sending: after a crash, 'sent' means "find the task", never "send again".
  if (!(await job.recorder.saveFollow({ phase: 'sent' }))) return 'done';
  const mode = job.recorder.follow.mode;
  if (mode === 'streaming' && !job.conn.streaming) {
    await job.recorder.recordRemote({ event: 'streaming-unsupported', note: "the peer's card does not offer streaming; sending a blocking message instead" });
    return sendOnce(job, true);
  }
  if (mode === 'streaming') return sendStreaming(job);
  return sendOnce(job, mode === 'blocking');
}
