/**
 * Following a peer's task to its true end:
 * - tasks/resubscribe | SubscribeToTask, reconnecting with exponential backoff when the stream
 *   drops or the peer closes it (its window) before the end;
 * - tasks/get polling with backoff when the peer cannot subscribe (-32004, -32601, an HTTP
 *   error on subscribe, or a card without streaming);
 * - transient errors are recorded as 'follow-error' events and never fail the task; an event
 *   over the SSE bound is one too, and following then polls (a peer that sent one will again);
 * - SWITCHBOARD_FOLLOW_LIMIT bounds it all: then FAILED `follow limit exceeded`.
 */
import { errorMessage } from '../../log';
import type { Task } from '../../protocol/types';
import { getTask, listContextTasks, subscribeTask } from '../../client/a2a-client';
import { FOLLOW_BACKOFF, worthRecording } from './backoff';
import { Backoff } from '../../util/backoff';
import { sleep } from '../../util/abortable';
import { claimLocalFailure, FOLLOW_LIMIT_EXCEEDED, LOST_CONTACT } from './endings';
import { applyEvents, followLimitClock, settle, taskOf, type FollowJob } from './follow-job';
import { ClientTimeoutError, TransportError } from '../../client/http-transport';
import { RpcError, UnreadableStreamError } from '../../client/json-rpc';
import { SseLimitError } from '../../client/sse';
import { DIRECT_PEER, metrics } from '../../metrics/metrics';
import { taskSpanEvent } from '../../tracing/spans';

type Attempt = 'done' | 'progress' | 'pending';

const TASK_NOT_FOUND = -32001;

/** The peer cannot serve a subscription: poll instead. */
function cannotSubscribe(err: unknown): boolean {
  if (err instanceof RpcError) return err.code === -32004 || err.code === -32601;
  return err instanceof TransportError && err.status !== undefined;
}

async function subscribeOnce(job: FollowJob, signal: AbortSignal): Promise<Attempt> {
  let events = 0;
  for await (const batch of subscribeTask(job.conn, job.recorder.remoteTaskId!, { timeoutMs: job.conn.timeoutMs, signal })) {
    events += batch.length;
    if (await applyEvents(job, batch)) return 'done';
  }
  return events ? 'progress' : 'pending';
}

async function pollOnce(job: FollowJob, signal: AbortSignal): Promise<Attempt> {
  const task = await getTask(job.conn, job.recorder.remoteTaskId!, { timeoutMs: job.conn.timeoutMs, signal });
  return (await settle(job, await job.recorder.applySnapshot(task))) ? 'done' : 'pending';
}

async function endAtLimit(job: FollowJob): Promise<void> {
  const seconds = job.followLimitMs / 1000;
  await claimLocalFailure(taskOf(job), FOLLOW_LIMIT_EXCEEDED, `followed the peer's task ${job.recorder.remoteTaskId ?? '(unknown)'} for ${seconds} s without an end; it may still be running at the peer`);
}

const peerLabel = (job: FollowJob) => job.conn.peerName ?? DIRECT_PEER;

class ErrorLog {
  private previous: string | undefined;
  private count = 0;
  constructor(private readonly job: FollowJob) {}

  /** Records a 'follow-error'; a repeated error only on its 1st, 2nd, 4th, 8th... time. */
  async record(phase: string, err: unknown, retryInMs: number): Promise<void> {
    metrics().followErrors.inc({ peer: peerLabel(this.job), phase });
    const message = errorMessage(err);
    this.count = message === this.previous ? this.count + 1 : 1;
    if (worthRecording(this.count, message, this.previous)) {
      await this.job.recorder.recordFollowError({ phase, error: message, attempt: this.count, retryInMs });
    }
    this.previous = message;
  }
}

export interface FollowOptions {
  /**
   * Read the task once with tasks/get before subscribing: a restart may have missed its end, and
   * a lookup found only its id.
   */
  getFirst?: boolean;
}

/** Follows the peer's task (recorder.remoteTaskId) until its turn ends or the follow limit. */
export async function followRemoteTask(job: FollowJob, opts: FollowOptions = {}): Promise<void> {
  const clock = followLimitClock(job);
  const backoff = new Backoff(FOLLOW_BACKOFF);
  const errors = new ErrorLog(job);
  let polling = !job.conn.streaming || opts.getFirst === true;
  let switchBack = opts.getFirst === true && job.conn.streaming;
  let attempts = 0;
  try {
    for (;;) {
      if (job.signal.aborted) return;
      if (clock.expired()) return endAtLimit(job);
      let outcome: Attempt = 'pending';
      let failure: unknown = null;
      if (attempts++ > 0) {
        metrics().followReconnects.inc({ peer: peerLabel(job), how: polling ? 'poll' : 'resubscribe' });
        taskSpanEvent(job.recorder.taskId, polling ? 'a2a.follow.poll' : 'a2a.follow.resubscribe', { attempt: attempts });
      }
      try {
        outcome = polling ? await pollOnce(job, clock.signal) : await subscribeOnce(job, clock.signal);
      } catch (err) {
        if (job.signal.aborted || clock.expired()) continue;
        if (err instanceof RpcError && err.code === TASK_NOT_FOUND) {
          await claimLocalFailure(taskOf(job), `peer lost the task: ${err.message}`, `the peer no longer knows task ${job.recorder.remoteTaskId}`);
          return;
        }
        // A stream we cannot read (over the bound, or not JSON to us): that peer will send the
        // same again, so following polls; the task never fails for our parser's sake.
        if (!polling && (err instanceof SseLimitError || err instanceof UnreadableStreamError)) {
          polling = true;
          await errors.record('subscribe', err, 0);
          await job.recorder.recordRemote({ event: 'polling', reason: errorMessage(err) });
          backoff.reset();
          continue;
        }
        if (!polling && cannotSubscribe(err)) {
          polling = true;
          await job.recorder.recordRemote({ event: 'polling', reason: errorMessage(err) });
          backoff.reset();
          continue;
        }
        // An idle stream that hit our clock is reconnected, not reported: it is not an error.
        failure = err instanceof ClientTimeoutError && !polling ? null : err;
      }
      if (outcome === 'done') return;
      if (switchBack) {
        // The read-first after a restart is done: from now on, subscribe.
        [polling, switchBack] = [false, false];
        continue;
      }
      if (outcome === 'progress') backoff.reset();
      const wait = Math.min(backoff.next(), clock.remaining());
      if (failure) await errors.record(polling ? 'poll' : 'subscribe', failure, wait);
      metrics().followRetries.inc({ peer: peerLabel(job) });
      await sleep(wait, clock.signal);
    }
  } finally {
    clock.clear();
  }
}

/** The one task in a context we minted for this dispatch: it can only be this dispatch's. */
function onlyTaskOfMintedContext(job: FollowJob, tasks: Task[]): Task | undefined {
  return job.recorder.follow.contextMinted && tasks.length === 1 ? tasks[0] : undefined;
}

/**
 * After a send that ended without naming the peer's task (our timeout cut a last-resort
 * blocking send, the connection dropped, a restart), look the task up by our message id, where
 * the peer can list tasks: v1.0 ListTasks by context. v0.3 JSON-RPC has no tasks/list (v0.3.0
 * §7.3.1 defines it for gRPC/REST only), so there contact is lost, and the task ends saying so.
 * Returns true when there is a task to follow (read it with tasks/get first: getFirst).
 */
export async function locateRemoteTask(job: FollowJob, why: string): Promise<boolean> {
  const { message, remoteContextId } = job.recorder.follow;
  const contextId = remoteContextId ?? job.recorder.contextId;
  const lost = (detail: string) => claimLocalFailure(taskOf(job), `${LOST_CONTACT}: ${why}`, detail).then(() => false);
  if (job.conn.version !== '1.0') return lost(`A2A ${job.conn.version} JSON-RPC cannot list tasks, so the peer's task for message ${message.messageId} cannot be looked up; it may still run at the peer`);
  const clock = followLimitClock(job);
  const backoff = new Backoff(FOLLOW_BACKOFF);
  const errors = new ErrorLog(job);
  try {
    for (;;) {
      if (job.signal.aborted) return false;
      if (clock.expired()) return endAtLimit(job).then(() => false);
      try {
        const tasks = await listContextTasks(job.conn, contextId, { timeoutMs: job.conn.timeoutMs, signal: clock.signal });
        const mine = tasks.find((t) => t.history?.some((m) => m.messageId === message.messageId)) ?? onlyTaskOfMintedContext(job, tasks);
        if (!mine) {
          // Never "the peer has no task": a peer may list tasks without their history (Hermes).
          const seen = `context ${contextId} lists ${tasks.length} task(s), none showing message ${message.messageId}`;
          await claimLocalFailure(taskOf(job), `${LOST_CONTACT}: ${why}`, `${seen}; the peer's task cannot be told apart and may still run at the peer`);
          return false;
        }
        if (!mine.history?.some((m) => m.messageId === message.messageId)) {
          await job.recorder.recordRemote({ event: 'adopted', note: `the only task in context ${contextId}, which was minted for this dispatch (the peer lists no history to match message ${message.messageId})`, remoteTaskId: mine.id });
        }
        // A listed task may lack its artifacts (v1.0 ListTasks leaves them out unless asked):
        // only its id is taken here, and following reads the task itself first.
        return job.recorder.learnRemote(mine);
      } catch (err) {
        if (job.signal.aborted || clock.expired()) continue;
        if ((err instanceof RpcError && err.code !== -32603) || (err instanceof TransportError && err.status !== undefined)) {
          return lost(`looking up the peer's task for message ${message.messageId} failed: ${errorMessage(err)}`);
        }
        const wait = Math.min(backoff.next(), clock.remaining());
        await errors.record('locate', err, wait);
        metrics().followRetries.inc({ peer: peerLabel(job) });
        await sleep(wait, clock.signal);
      }
    }
  } finally {
    clock.clear();
  }
}
