/**
 * Writes what a peer tells us into the outbound task's own event log, so the
 * dashboard sees one kind of stream whether a task runs here or at a peer:
 * status → 'status' events with the state; artifact chunks → 'artifact' events, unchanged, so
 * accumulateArtifacts gives the whole result; the peer's task id → Task.remoteTaskId.
 * Non-terminal writes are guarded (onlyIfNotTerminal): once the task ended locally (a cancel,
 * the follow limit) nothing more is written and the caller learns it and stops.
 */
import { recordChunkRun, recordEvents, type WriteOptions } from '../core/task-writer';
import type { NewEvent } from '../../db/task-records';
import { accumulateArtifacts, artifactContent, joinedParts } from '../../protocol/artifacts';
import type { EventPayload } from '../../protocol/task-events';
import type { Artifact, ArtifactChunk, Message, StreamEvent, Task, TaskStatus } from '../../protocol/types';
import { isTerminalState, isTurnEndState } from '../../protocol/types';
import { followJson, statusKey, type FollowState } from './follow-state';
import { EmitPipe } from '../core/emit-pipe';
import { outputMeter } from '../core/output-limit';

/** What applying one remote event means for the follower. */
export type Step =
  | { kind: 'continue' }
  | { kind: 'interrupted' }
  | { kind: 'terminal'; status: TaskStatus; metadata?: Record<string, unknown>; fromSnapshot: boolean }
  | { kind: 'message'; message: Message }
  | { kind: 'ended-locally' };

const CONTINUE: Step = { kind: 'continue' };
/** The `remote` note recorded when the peer's task holds other content than it streamed. */
export const FINAL_DIFFERS = 'final-differs';

/** A Switchboard peer marks a detach in metadata.switchboard (task, event or status message). */
function peerDetachReason(status: TaskStatus, metadata?: Record<string, unknown>): string | null {
  for (const source of [metadata, status.message?.metadata]) {
    const sb = source?.switchboard as { detached?: unknown; reason?: unknown } | undefined;
    if (status.state === 'working' && sb?.detached === true) return typeof sb.reason === 'string' ? sb.reason : 'detached';
  }
  return null;
}
const ENDED: Step = { kind: 'ended-locally' };

const chunkOf = (event: Extract<StreamEvent, { kind: 'artifact-update' }>): ArtifactChunk => ({
  artifact: event.artifact,
  ...(event.append !== undefined ? { append: event.append } : {}),
  ...(event.lastChunk !== undefined ? { lastChunk: event.lastChunk } : {}),
});

/** How many chunks the recorder's copy of the artifacts may lag behind (RemoteRecorder.remember). */
const FOLD_EVERY = 1_000;

const chunkEvents = (chunks: ArtifactChunk[]): NewEvent[] => chunks.map((payload) => ({ type: 'artifact' as const, payload }));

export class RemoteRecorder {
  /** The last status recorded, so repeated snapshots (polling, reconnects) add no duplicates. */
  private lastStatus: string | undefined;
  /**
   * Artifact chunks are pipelined like a served turn's emits (core/emit-pipe.ts): a stream's chunks
   * commit many per transaction instead of one commit each. Every other write waits for them
   * first (flush), so the log keeps the peer's order.
   */
  private readonly chunks = new EmitPipe();
  /**
   * A peer's chunks read in one go (one network read holds dozens of SSE events) are written
   * together: the first opens a run that is written on the next turn of the event loop, and the
   * chunks read until then join it. One append, one publish and one mirror step for the run
   * instead of one each (a relay's stream: decision 297). Order holds: every other write flushes
   * the pipe, and so waits for the open run, first.
   */
  private run: ArtifactChunk[] | null = null;
  /**
   * The open run, taken back before it was written because the peer's end came in the same read
   * (holdOpenRun): it goes in the end's commit (takeHeldRun), or first in whatever is written
   * before that (flush), so the log keeps the peer's order either way.
   */
  private held: ArtifactChunk[] = [];
  /** A pipelined chunk found the task already ended here. */
  private endedHere = false;
  /** Held for the next write (stageFollow): one commit where there would be two in a row. */
  private staged: { events: NewEvent[]; patch: NonNullable<WriteOptions['patch']> } | null = null;

  constructor(
    readonly taskId: string,
    readonly contextId: string,
    public remoteTaskId: string | null,
    public follow: FollowState,
    /** The accumulated artifacts we have logged so far (mirror of the event log), without `unfolded`. */
    private artifacts: Artifact[],
  ) {}

  /**
   * Chunks logged since `artifacts` was last brought up to date: folded in when the artifacts are
   * read (a reconcile), so a stream's 2,000 chunks cost one accumulation, not 2,000 (each builds
   * the artifacts' index anew).
   */
  private unfolded: ArtifactChunk[] = [];

  /** Logs a chunk in the copy; folded every FOLD_EVERY chunks too, so a long stream keeps no pile of chunk objects. */
  private remember(chunk: ArtifactChunk): void {
    if (this.unfolded.push(chunk) >= FOLD_EVERY) this.accumulated();
  }

  private accumulated(): Artifact[] {
    if (this.unfolded.length) this.artifacts = accumulateArtifacts(this.unfolded.splice(0), this.artifacts);
    return this.artifacts;
  }

  /** Appends events unless the task already ended; false when it had. */
  async write(events: NewEvent[], patch: WriteOptions['patch'] = {}, messages: Message[] = []): Promise<boolean> {
    await this.flush();
    if (this.endedHere) return false;
    const staged = this.staged;
    this.staged = null;
    const all = staged ? [...staged.events, ...events] : events;
    const change = await recordEvents(this.taskId, all, { onlyIfNotTerminal: true, patch: staged ? { ...staged.patch, ...patch } : patch, messages });
    return change !== null;
  }

  /** Waits until every pipelined chunk has committed (before an end is claimed), held ones included. */
  async flush(): Promise<void> {
    await this.chunks.drain();
    const held = this.held.splice(0);
    if (held.length && !(await recordChunkRun(this.taskId, chunkEvents(held), { onlyIfNotTerminal: true }))) this.endedHere = true;
  }

  /**
   * The peer's end was read: a run of chunks read just before it and not yet written is kept
   * back for the end's commit (one commit for both, and one for a relay's caller, whose mirror
   * then sees the chunks with the end). They are not delayed: the end follows after the one
   * confirming read of the peer's task.
   */
  holdOpenRun(): void {
    const run = this.run;
    this.run = null;
    if (run) this.held.push(...run.splice(0)); // emptied: its pipelined write writes nothing
  }

  /**
   * The held chunks as events for the end's commit, when they fit under the output limit with
   * what is stored (nearly always); otherwise they are written first as a run is (chunk by
   * chunk, keeping those before the one that goes over) and none are returned.
   */
  async takeHeldRun(): Promise<NewEvent[]> {
    await this.chunks.drain();
    const events = chunkEvents(this.held);
    if (!events.length || (await outputMeter().fits(this.taskId, events))) {
      this.held = [];
      return events;
    }
    await this.flush();
    return [];
  }

  async saveFollow(changes: Partial<FollowState>, events: NewEvent[] = [], patch: WriteOptions['patch'] = {}): Promise<boolean> {
    this.follow = { ...this.follow, ...changes };
    return this.write(events, { ...patch, follow: followJson(this.follow) });
  }

  /**
   * Like saveFollow, but committed with the next write instead of on its own. Only for a change
   * that the next write must precede nothing at the peer: the connection found before a send,
   * whose own write ('sent') comes before the message goes out.
   */
  stageFollow(changes: Partial<FollowState>, events: NewEvent[], patch: NonNullable<WriteOptions['patch']>): void {
    this.follow = { ...this.follow, ...changes };
    this.staged = { events: [...(this.staged?.events ?? []), ...events], patch: { ...this.staged?.patch, ...patch, follow: followJson(this.follow) } };
  }

  /** Remembers the peer's task id (and context) the first time we see it. */
  async learnRemote(remote: { id: string; contextId?: string }): Promise<boolean> {
    this.stageRemote(remote);
    return this.commitStaged();
  }

  /** learnRemote, committed with the next write (a snapshot's status goes in the same commit). */
  private stageRemote(remote: { id: string; contextId?: string }): void {
    if (this.remoteTaskId === remote.id) return;
    this.remoteTaskId = remote.id;
    const remoteContextId = remote.contextId || this.follow.remoteContextId;
    this.stageFollow(
      { phase: 'follow', ...(remoteContextId ? { remoteContextId } : {}) },
      [{ type: 'remote', payload: { event: 'task', remoteTaskId: remote.id, remoteContextId } }],
      { remoteTaskId: remote.id },
    );
  }

  /** Commits what is staged, if anything; false when the task had ended. */
  private async commitStaged(): Promise<boolean> {
    return this.staged ? this.write([]) : !this.endedHere;
  }

  /** Peer messages are stored under our ids (the peer's stay in the task's remote fields). */
  private local(message: Message): Message {
    return { ...message, taskId: this.taskId, contextId: this.contextId };
  }

  /**
   * The peer (or our own client timeout) stopped observing the task while it keeps running:
   * one `detached` event, so the outbound task shows detached like an inbound one.
   */
  async recordDetached(reason: string, message?: Message): Promise<void> {
    await this.flush();
    await this.commitStaged();
    await recordEvents(this.taskId, [{ type: 'detached', state: 'working', payload: { reason, ...(message ? { message } : {}) } }], {
      onlyIfNotTerminal: true,
      onlyIfNotDetached: true,
    });
  }

  async recordStatus(status: TaskStatus, metadata?: Record<string, unknown>): Promise<boolean> {
    const message = status.message ? this.local(status.message) : undefined;
    const detach = peerDetachReason(status, metadata);
    if (detach) {
      this.lastStatus = statusKey(status);
      await this.recordDetached(`peer detached: ${detach}`, message);
      return this.write([]);
    }
    const payload = { message, metadata, remote: { state: status.state, timestamp: status.timestamp } };
    this.lastStatus = statusKey(status);
    // The peer moved on from the question a follow-up answered: any later one is a new question.
    if (this.follow.answering && this.lastStatus !== this.follow.answering) this.follow = { ...this.follow, answering: undefined };
    return this.write([{ type: 'status', state: status.state, payload }]);
  }

  async recordChunk(chunk: ArtifactChunk): Promise<boolean> {
    if (this.endedHere) return false;
    this.remember(chunk);
    if (this.run) {
      this.run.push(chunk);
      return true;
    }
    const run = (this.run = [chunk]);
    await this.chunks.push(async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.run === run) this.run = null;
      if (!run.length) return; // held for the end's commit (holdOpenRun)
      const change = await recordChunkRun(this.taskId, chunkEvents(run), { onlyIfNotTerminal: true });
      if (!change) this.endedHere = true;
    });
    return !this.endedHere;
  }

  async recordMessage(message: Message): Promise<boolean> {
    const stored = this.local(message);
    return this.write([{ type: 'message', payload: { message: stored, remote: true } }], {}, [stored]);
  }

  async recordRemote(payload: EventPayload<'remote'>): Promise<boolean> {
    return this.write([{ type: 'remote', payload }]);
  }

  async recordFollowError(payload: EventPayload<'follow-error'>): Promise<boolean> {
    return this.write([{ type: 'follow-error', payload }]);
  }

  /**
   * Makes our accumulated artifacts equal the peer's snapshot: any artifact that differs (we
   * missed chunks while disconnected) is recorded whole as a non-append chunk, which replaces it.
   * At a turn's end (`final`) the peer's task is the truth: artifacts it no longer
   * reports go too (a peer that re-renders its reply under a new artifactId), so the result is
   * never held twice; a final task without artifacts leaves what was streamed. When the content
   * (ids aside) differs from what we had, a `final-differs` note says so on the task.
   */
  async reconcileArtifacts(snapshot: Artifact[] | undefined, final = false): Promise<boolean> {
    const theirs = snapshot ?? [];
    if (!theirs.length) return true;
    const ids = new Set(theirs.map((a) => a.artifactId));
    const ours = this.accumulated();
    const replaceAll = final && ours.some((a) => !ids.has(a.artifactId));
    const chunks: ArtifactChunk[] = [];
    for (const artifact of theirs) {
      const mine = ours.find((a) => a.artifactId === artifact.artifactId);
      // Compared as stored (appended text joined): a peer that keeps 300 parts holds the same result.
      if (!replaceAll && mine && JSON.stringify(joinedParts(mine.parts)) === JSON.stringify(joinedParts(artifact.parts))) continue;
      chunks.push({ artifact, append: false, lastChunk: true, ...(replaceAll && !chunks.length ? { replaceAll: true } : {}) });
    }
    if (!chunks.length) return true;
    const before = artifactContent(ours);
    const after = artifactContent(accumulateArtifacts(chunks, ours.map((a) => ({ ...a, parts: [...a.parts] }))));
    const events: NewEvent[] = chunks.map((chunk) => ({ type: 'artifact', payload: chunk }));
    if (ours.length && before !== after) {
      events.push({ type: 'remote', payload: { event: FINAL_DIFFERS, note: "the peer's task holds a result that differs from what it streamed; the peer's task is kept" } });
    }
    if (!(await this.write(events))) return false;
    this.artifacts = accumulateArtifacts(chunks, this.accumulated());
    return true;
  }

  /** A Task snapshot (send answer, first stream event, tasks/get). */
  async applySnapshot(task: Task): Promise<Step> {
    // A new task id is committed with what the snapshot changes (artifacts, status), else alone.
    this.stageRemote(task);
    if (!(await this.reconcileArtifacts(task.artifacts, isTurnEndState(task.status.state)))) return ENDED;
    const changed = task.status.state !== 'unknown' && statusKey(task.status) !== this.lastStatus;
    const record = !isTerminalState(task.status.state) && !(this.follow.answering && statusKey(task.status) === this.follow.answering) && changed;
    if (!(await (record ? this.recordStatus(task.status, task.metadata) : this.commitStaged()))) return ENDED;
    if (isTerminalState(task.status.state)) return { kind: 'terminal', status: task.status, metadata: task.metadata, fromSnapshot: true };
    if (this.follow.answering && statusKey(task.status) === this.follow.answering) return CONTINUE;
    return isTurnEndState(task.status.state) ? { kind: 'interrupted' } : CONTINUE;
  }

  /**
   * The peer's event applied at once, when it is a chunk that joins the open run (no write, no
   * promise: what apply would do, then return); null when it needs apply.
   */
  applyNow(event: StreamEvent): Step | null {
    if (event.kind !== 'artifact-update' || !this.run || !this.remoteTaskId || this.endedHere) return null;
    const chunk = chunkOf(event);
    this.remember(chunk);
    this.run.push(chunk);
    return CONTINUE;
  }

  async apply(event: StreamEvent): Promise<Step> {
    switch (event.kind) {
      case 'task':
        return this.applySnapshot(event);
      case 'message':
        if (!this.remoteTaskId) return { kind: 'message', message: event };
        return (await this.recordMessage(event)) ? CONTINUE : ENDED;
      case 'artifact-update': {
        if (!this.remoteTaskId && !(await this.learnRemote({ id: event.taskId, contextId: event.contextId }))) return ENDED;
        return (await this.recordChunk(chunkOf(event))) ? CONTINUE : ENDED;
      }
      case 'status-update': {
        if (!this.remoteTaskId && !(await this.learnRemote({ id: event.taskId, contextId: event.contextId }))) return ENDED;
        const state = event.status.state;
        if (isTerminalState(state)) return { kind: 'terminal', status: event.status, metadata: event.metadata, fromSnapshot: false };
        if (state !== 'unknown' && !(await this.recordStatus(event.status, event.metadata))) return ENDED;
        return isTurnEndState(state) ? { kind: 'interrupted' } : CONTINUE;
      }
    }
  }
}
