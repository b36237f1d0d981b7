/**
 * Following one task to where it stops (an end, or a question), across dropped connections and
 * server restarts: each reconnect resumes after the last seq seen. The result text is accumulated
 * from the artifact chunks exactly as the server does, then checked against the server's final
 * snapshot, so what was printed is the whole result.
 */
import { z } from 'zod';
import { accumulateArtifacts } from '../protocol/artifacts';
import type { Artifact, ArtifactChunk } from '../protocol/types';
import { isTerminal, TASK_STREAM_EVENTS, TaskDetailSchema, TimelineEventSchema, type TaskDetail, type TimelineEvent } from '../dashboard/wire';
import { CliError, type ApiTarget } from './api';
import { EXIT, exitCodeForState, type ExitCode } from './exit-codes';
import { fetchTaskDetail } from './tasks-api';
import { StreamDropped, taskStreamFrames } from './task-stream';
import { linkedSignal, sleep } from '../util/abortable';
import { backoffDelay } from '../util/backoff';

export interface FollowView {
  /** The task as first seen (a snapshot), then its full final detail. */
  onTask(detail: TaskDetail): void;
  onEvent(event: TimelineEvent): void;
  /** The accumulated artifacts after a change. */
  onArtifacts(artifacts: Artifact[]): void;
  onReconnecting(reason: string, attempt: number): void;
}

export interface FollowOptions {
  signal: AbortSignal;
  /** How long the server may stay unreachable before we report lost contact. */
  reconnectLimitMs: number;
}

export interface FollowOutcome {
  detail: TaskDetail;
  exitCode: ExitCode;
}

/** From 0.25 s, doubling, at most 4 s, until reconnectLimitMs: the CLI notices a restart soon. */
const RECONNECT_BACKOFF = { initialMs: 250, maxMs: 4_000 };
const WAITING_STATES = ['input-required', 'auth-required'];
const EndSchema = z.object({ state: z.string(), lastSeq: z.number() });

export class Follower {
  lastSeq: number | null = null;
  artifacts: Artifact[] = [];
  /** Why following stopped: an end frame, or a question the task asks. */
  stopped: 'end' | 'waiting' | null = null;

  constructor(private readonly view: FollowView) {}

  handle(event: string, data: string): void {
    if (event === TASK_STREAM_EVENTS.snapshot) {
      const detail = TaskDetailSchema.parse(JSON.parse(data));
      // What happened before we connected is shown too: a fast peer's first status (its
      // progress message) is often in the snapshot already, not in the live events after it.
      for (const e of detail.events) if (e.type !== 'artifact' && (this.lastSeq === null || e.seq > this.lastSeq)) this.view.onEvent(e);
      this.lastSeq = detail.task.lastSeq;
      this.artifacts = (detail.snapshot.artifacts ?? []).map((a) => ({ ...a, parts: [...a.parts] }));
      this.view.onTask(detail);
      this.view.onArtifacts(this.artifacts);
      if (WAITING_STATES.includes(detail.task.state)) this.stopped = 'waiting';
    } else if (event === TASK_STREAM_EVENTS.event) {
      const e = TimelineEventSchema.parse(JSON.parse(data));
      if (this.lastSeq !== null && e.seq <= this.lastSeq) return;
      this.lastSeq = e.seq;
      if (e.type === 'artifact') {
        this.artifacts = accumulateArtifacts([e.payload as ArtifactChunk], this.artifacts);
        this.view.onArtifacts(this.artifacts);
      } else this.view.onEvent(e);
      if (e.type === 'status' && e.state && WAITING_STATES.includes(e.state)) this.stopped = 'waiting';
    } else if (event === TASK_STREAM_EVENTS.end) {
      const end = EndSchema.parse(JSON.parse(data));
      this.lastSeq = Math.max(this.lastSeq ?? 0, end.lastSeq);
      this.stopped = 'end';
    }
  }
}

/** Reads the stream until it stops or drops; returns whether it stopped. */
async function readOnce(target: ApiTarget, taskId: string, follower: Follower, signal: AbortSignal, onFrame: () => void): Promise<boolean> {
  for await (const frame of taskStreamFrames(target, taskId, follower.lastSeq, signal)) {
    onFrame();
    follower.handle(frame.event, frame.data);
    if (follower.stopped) return true;
  }
  return false;
}

export async function followTask(target: ApiTarget, taskId: string, view: FollowView, opts: FollowOptions): Promise<FollowOutcome | null> {
  const follower = new Follower(view);
  // Our own signal for the open stream: stopping at a question must close it too.
  const connection = linkedSignal([opts.signal]);
  try {
    return await followUntilStopped(target, taskId, view, follower, { ...opts, signal: connection.signal });
  } finally {
    connection.abort();
    connection.dispose();
  }
}

async function followUntilStopped(target: ApiTarget, taskId: string, view: FollowView, follower: Follower, opts: FollowOptions): Promise<FollowOutcome | null> {
  let attempt = 0;
  let failingSince: number | null = null;
  const connected = () => {
    attempt = 0;
    failingSince = null;
  };
  while (!opts.signal.aborted) {
    let reason: string;
    try {
      if (await readOnce(target, taskId, follower, opts.signal, connected)) break;
      // A clean close without `end`: the server went away (shutdown, restart). Resume.
      reason = 'the stream closed';
    } catch (err) {
      if (opts.signal.aborted) break;
      const transient = err instanceof StreamDropped || (err instanceof CliError && err.exitCode === EXIT.unreachable);
      if (!transient) throw err;
      reason = err.message;
    }
    if (opts.signal.aborted) break;
    failingSince ??= Date.now();
    if (Date.now() - failingSince > opts.reconnectLimitMs) {
      throw new CliError(
        `lost contact with ${target.baseUrl} while following task ${taskId} (${reason}). The task may still be running; resume with: switchboard tasks watch ${taskId}`,
        EXIT.lostContact,
        'lost_contact',
      );
    }
    view.onReconnecting(reason, ++attempt);
    await sleep(backoffDelay(RECONNECT_BACKOFF, attempt), opts.signal);
  }
  if (opts.signal.aborted) return null;
  // The materialised final task is the authority on the whole result.
  const detail = await fetchTaskDetail(target, taskId);
  view.onTask(detail);
  view.onArtifacts(detail.snapshot.artifacts ?? []);
  const exitCode = exitCodeForState(detail.task.state, detail.task.endReason) ?? (isTerminal(detail.task.state) ? EXIT.failed : EXIT.lostContact);
  return { detail, exitCode };
}
