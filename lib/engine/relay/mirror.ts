/**
 * Mirrors a relay's peer task (the outbound child) into the inbound turn as its events commit:
 * the peer's status messages become progress, its artifact chunks are passed on unchanged (so
 * the caller accumulates the same artifacts), and the child's turn end becomes the turn's
 * outcome. At the end the child's artifacts are compared whole with what was mirrored, and any
 * that differ go out with the outcome as replacing chunks: the caller's result equals the peer's.
 */
import type { AgentTurn, TurnOutcome } from '../agent';
import { observeTaskBatches, type ObservationEnd } from '../observe';
import { loadTask } from '../snapshot';
import { findTask } from '../../db/task-repo';
import type { StoredEvent, TaskRecord } from '../../db/task-records';
import { accumulateArtifacts, joinedParts } from '../../protocol/artifacts';
import type { Artifact, ArtifactChunk, Message } from '../../protocol/types';
import { isTurnEndState, textOf } from '../../protocol/types';
import type { RelayChild } from './child';

export class ArtifactMirror {
  constructor(private mirrored: Artifact[]) {}

  async pass(turn: AgentTurn, chunk: ArtifactChunk): Promise<void> {
    this.mirrored = accumulateArtifacts([chunk], this.mirrored);
    await turn.emit.artifact(chunk);
  }

  /** Whole replacements for every artifact of the peer's that differs from the mirrored one. */
  differences(peer: Artifact[]): ArtifactChunk[] {
    const same = (a: Artifact) => {
      const mine = this.mirrored.find((m) => m.artifactId === a.artifactId);
      return mine !== undefined && JSON.stringify(joinedParts(mine.parts)) === JSON.stringify(joinedParts(a.parts));
    };
    return peer.filter((a) => !same(a)).map((artifact) => ({ artifact, append: false, lastChunk: true }));
  }
}

async function mirrorEvent(event: StoredEvent, turn: AgentTurn, artifacts: ArtifactMirror): Promise<void> {
  if (event.type === 'artifact' && 'artifact' in event.payload) {
    await artifacts.pass(turn, event.payload);
    return;
  }
  // Only what the peer said: our own bookkeeping statuses (connected, detached) carry no remote.
  if (event.type === 'status' && event.state === 'working' && event.payload.remote && event.payload.message) {
    const text = textOf(event.payload.message.parts);
    if (text) await turn.emit.progress(text);
  }
}

/** The inbound turn's outcome from the child's turn end (its record as it ended). */
export async function outcomeOf(child: TaskRecord, peer: string, artifacts: ArtifactMirror): Promise<TurnOutcome> {
  const message = child.statusMessage as Message | null;
  const parts = message?.parts?.length ? message.parts : undefined;
  if (child.state === 'input-required' || child.state === 'auth-required') {
    return { state: 'input-required', parts: parts ?? [{ kind: 'text', text: `peer ${peer} asks for input` }] };
  }
  if (child.state === 'completed') {
    const snapshot = await loadTask(child.id, { historyLength: 0 });
    return { state: 'completed', ...(parts ? { parts } : {}), artifacts: artifacts.differences(snapshot?.artifacts ?? []) };
  }
  const reason = `relay peer ${peer}: ${child.endReason ?? child.state}`;
  return child.state === 'rejected' ? { state: 'rejected', reason } : { state: 'failed', reason };
}

export type MirrorEnd = { ended: TaskRecord } | { stopped: ObservationEnd };

/** Passes the child's events after `child.afterSeq` on to the turn until the child's turn ends. */
export async function mirrorChild(child: RelayChild, turn: AgentTurn, artifacts: ArtifactMirror): Promise<MirrorEnd> {
  const batches = observeTaskBatches(child.id, { afterSeq: child.afterSeq, until: 'turn', signal: turn.signal });
  for (;;) {
    const step = await batches.next();
    if (step.done) {
      if (step.value !== 'ended') return { stopped: step.value };
      const record = await findTask(child.id);
      return record && isTurnEndState(record.state) ? { ended: record } : { stopped: 'aborted' };
    }
    for (const event of step.value) await mirrorEvent(event, turn, artifacts);
  }
}
