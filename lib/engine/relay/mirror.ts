/**
 * Mirrors a relay's peer task (the outbound child) into the inbound turn as its events commit:
 * the peer's status messages become progress, its artifact chunks are passed on unchanged (so
 * the caller accumulates the same artifacts), and the child's turn end becomes the turn's
 * outcome. Chunks that arrive together with the end go out with the outcome (one commit). After
 * a resume or in a later turn, the child's artifacts are compared whole with what was mirrored at
 * the end, and any that differ go out with the outcome as replacing chunks: the caller's result
 * equals the peer's. A fresh turn saw the child's whole log, so what it mirrored is the result.
 */
import type { AgentTurn, TurnOutcome } from '../../agent-runner';
import { observeTaskBatches, type ObservationEnd } from '../core/observe';
import { loadTask } from '../core/snapshot';
import type { StoredEvent, TaskRecord } from '../../db/task-records';
import { accumulateArtifacts, joinedParts } from '../../protocol/artifacts';
import type { Artifact, ArtifactChunk, Message } from '../../protocol/types';
import { isTurnEndState, textOf } from '../../protocol/types';
import type { RelayChild } from './child';
import { markChunkRow } from '../../db/event-refs';

/**
 * The caller's artifacts as mirrored from the child. `whole` when the mirror saw the child's log
 * from its start (a fresh turn): what it accumulated IS the child's result, and the end needs no
 * read of the child to compare (a resumed or later turn compares with the child's snapshot).
 */
export class ArtifactMirror {
  /** Chunks just before the child's end, recorded with the caller's outcome (one commit). */
  private held: ArtifactChunk[] = [];

  constructor(
    private mirrored: Artifact[],
    readonly whole = false,
  ) {}

  /** Chunks that came together, passed on in one write. */
  async pass(turn: AgentTurn, chunks: ArtifactChunk[]): Promise<void> {
    if (!chunks.length) return;
    this.accumulate(chunks);
    await turn.emit.artifacts(chunks);
  }

  /** Accumulated now, recorded with the outcome (takeHeld) or, for an outcome without artifacts, before it (release). */
  hold(chunk: ArtifactChunk): void {
    this.accumulate([chunk]);
    this.held.push(chunk);
  }

  /**
   * Only what will be compared is accumulated: a `whole` mirror is never compared (its result is
   * the child's log as passed on), so a fresh turn's stream costs no third copy of its artifacts
   * (the child's writer and the caller's writer each keep one).
   */
  private accumulate(chunks: ArtifactChunk[]): void {
    if (!this.whole) this.mirrored = accumulateArtifacts(chunks, this.mirrored);
  }

  takeHeld(): ArtifactChunk[] {
    return this.held.splice(0);
  }

  async release(turn: AgentTurn): Promise<void> {
    const held = this.takeHeld();
    if (held.length) await turn.emit.artifacts(held);
  }

  /** Whole replacements for every artifact of the peer's that differs from the mirrored one (a `whole` mirror keeps none: not for it). */
  differences(peer: Artifact[]): ArtifactChunk[] {
    const same = (a: Artifact) => {
      const mine = this.mirrored.find((m) => m.artifactId === a.artifactId);
      return mine !== undefined && JSON.stringify(joinedParts(mine.parts)) === JSON.stringify(joinedParts(a.parts));
    };
    return peer.filter((a) => !same(a)).map((artifact) => ({ artifact, append: false, lastChunk: true }));
  }
}

/** Only what the peer said: our own bookkeeping statuses (connected, detached) carry no remote. */
async function mirrorStatus(event: StoredEvent, turn: AgentTurn): Promise<void> {
  if (event.type === 'status' && event.state === 'working' && event.payload.remote && event.payload.message) {
    const text = textOf(event.payload.message.parts);
    if (text) await turn.emit.progress(text);
  }
}

/** How the child's turn ended: from its ending event as mirrored, or its record (a resumed turn). */
export type ChildEnd = Pick<TaskRecord, 'id' | 'state' | 'statusMessage' | 'endReason'>;

/** The inbound turn's outcome from the child's turn end. */
export async function outcomeOf(child: ChildEnd, peer: string, artifacts: ArtifactMirror, turn: AgentTurn): Promise<TurnOutcome> {
  const message = child.statusMessage as Message | null;
  const parts = message?.parts?.length ? message.parts : undefined;
  if (child.state === 'completed') {
    const snapshot = artifacts.whole ? null : await loadTask(child.id, { historyLength: 0 });
    const replaced = snapshot ? artifacts.differences(snapshot.artifacts ?? []) : [];
    return { state: 'completed', ...(parts ? { parts } : {}), artifacts: [...artifacts.takeHeld(), ...replaced] };
  }
  await artifacts.release(turn);
  if (child.state === 'input-required' || child.state === 'auth-required') {
    return { state: 'input-required', parts: parts ?? [{ kind: 'text', text: `peer ${peer} asks for input` }] };
  }
  const reason = `relay peer ${peer}: ${child.endReason ?? child.state}`;
  return child.state === 'rejected' ? { state: 'rejected', reason } : { state: 'failed', reason };
}

export type MirrorEnd = { ended: ChildEnd } | { stopped: ObservationEnd };

/** The child's end as its ending status event says it (the row was patched with it, in its commit). */
function endOf(childId: string, event: StoredEvent): ChildEnd | null {
  if (event.type !== 'status' || !event.state || !isTurnEndState(event.state)) return null;
  const payload = event.payload as { message?: Message; reason?: string };
  return { id: childId, state: event.state, statusMessage: payload.message ?? null, endReason: payload.reason ?? null };
}

/**
 * Mirrors one batch, in order: each run of artifact chunks in one write (a stream's group commit
 * hands over hundreds at once). The chunks right before the child's end are held for the
 * caller's outcome, so a result that comes with the end costs the caller one commit.
 */
async function mirrorBatch(batch: StoredEvent[], end: ChildEnd | null, turn: AgentTurn, artifacts: ArtifactMirror): Promise<void> {
  let passOn = end ? batch.length - 1 : batch.length;
  if (end) while (passOn > 0 && batch[passOn - 1].type === 'artifact') passOn--;
  const run: ArtifactChunk[] = [];
  for (const [i, event] of batch.entries()) {
    const chunk = event.type === 'artifact' && 'artifact' in event.payload ? event.payload : null;
    // The caller's log names the child's row instead of storing the chunk again (decision 420).
    if (chunk) markChunkRow(chunk, { taskId: event.taskId, seq: event.seq });
    if (i >= passOn) {
      if (chunk) artifacts.hold(chunk);
    } else if (chunk) {
      run.push(chunk);
    } else {
      await artifacts.pass(turn, run.splice(0));
      await mirrorStatus(event, turn);
    }
  }
  await artifacts.pass(turn, run);
}

/** Passes the child's events after `child.afterSeq` on to the turn until the child's turn ends. */
export async function mirrorChild(child: RelayChild, turn: AgentTurn, artifacts: ArtifactMirror): Promise<MirrorEnd> {
  const batches = observeTaskBatches(child.id, { afterSeq: child.afterSeq, until: 'turn', signal: turn.signal });
  let ended: ChildEnd | null = null;
  for (;;) {
    const step = await batches.next();
    if (step.done) return step.value === 'ended' && ended ? { ended } : { stopped: step.value === 'ended' ? 'aborted' : step.value };
    const last = step.value.at(-1);
    ended = last ? endOf(child.id, last) : null;
    await mirrorBatch(step.value, ended, turn, artifacts);
  }
}
