/**
 * A relay agent's turn (docs/relay.md): the inbound task is served like any agent's (window,
 * detach, late result, grace, scope), and its work is an outbound child task at the peer,
 * followed by the outbound engine and mirrored here as it arrives.
 *
 * - turn 1 starts the child; an answer after input-required continues the same child;
 * - a turn resumed after a restart finds its child again, brings the caller's artifacts level
 *   with the peer's, and mirrors on from there;
 * - a cancel (or the grace running out) cancels the child through the one cancel; a shutdown
 *   leaves it running, to be resumed.
 */
import type { AgentTurn, TurnOutcome } from '../../agent-runner';
import { cancel } from '../cancel';
import { executions } from '../core/executions';
import { loadTask } from '../core/snapshot';
import { findTask } from '../../db/task-repo';
import { operatorScope } from '../../db/task-scope';
import { isTurnEndState } from '../../protocol/types';
import { errorMessage, log } from '../../log';
import { continueChild, currentChild, startChild, type RelayChild, type RelayTarget } from './child';
import { ArtifactMirror, mirrorChild, outcomeOf } from './mirror';
import { refreshRelayCard } from './card';

/** What the runner returns once aborted: never recorded (whoever aborted claimed the end). */
const ABORTED: TurnOutcome = { state: 'failed', reason: 'aborted' };

/** What the caller's task already holds: nothing on a fresh task (no read), else its artifacts. */
async function mirroredArtifacts(turn: AgentTurn): Promise<ArtifactMirror> {
  if (turn.turnNumber === 1 && !turn.resumed) return new ArtifactMirror([], true);
  return new ArtifactMirror((await loadTask(turn.taskId, { historyLength: 0 }))?.artifacts ?? []);
}

/** Where a resumed turn stands: the caller's artifacts made equal to the peer's, then mirror on. */
async function resumeChild(turn: AgentTurn, artifacts: ArtifactMirror, childId: string): Promise<RelayChild> {
  const snapshot = await loadTask(childId, { historyLength: 0 });
  // Read after the snapshot: a chunk between the two is missed here, and the end fixes it.
  const record = (await findTask(childId))!;
  await artifacts.pass(turn, artifacts.differences(snapshot?.artifacts ?? []));
  return { id: childId, afterSeq: record.lastSeq };
}

async function childFor(target: RelayTarget, turn: AgentTurn, artifacts: ArtifactMirror): Promise<RelayChild | string> {
  if (turn.turnNumber === 1 && !turn.resumed) return startChild(target, turn);
  const child = await currentChild(turn);
  if (!child) return turn.resumed && turn.turnNumber === 1 ? startChild(target, turn) : 'the peer task of this conversation is gone';
  if (turn.resumed) {
    // Its turn ended while we were down: the end is already in its record.
    if (isTurnEndState(child.state)) return { id: child.id, afterSeq: -1 };
    return resumeChild(turn, artifacts, child.id);
  }
  return (await continueChild(child, turn)) ?? `the peer task is ${child.state}; it does not wait for input`;
}

/** The caller's leg ended early (cancel, grace): the peer's task is canceled too, unless we are stopping. */
async function cancelChild(child: RelayChild, turn: AgentTurn): Promise<void> {
  if (executions().shutdown.signal.aborted) return;
  try {
    await cancel(child.id, operatorScope('relay'), { door: 'engine', reason: `the caller's task ${turn.taskId} ended: ${String(turn.signal.reason)}` });
  } catch (err) {
    log.info('relay: the peer task was not canceled', { taskId: turn.taskId, child: child.id, error: errorMessage(err) });
  }
}

/** Resolves once the turn is aborted (shutdown stops the observation before the abort comes). */
const aborted = (signal: AbortSignal) => new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));

export async function runRelayTurn(target: RelayTarget, turn: AgentTurn): Promise<TurnOutcome> {
  const artifacts = await mirroredArtifacts(turn);
  const child = await childFor(target, turn, artifacts);
  if (typeof child === 'string') return { state: 'failed', reason: `relay: ${child}` };
  if (child.afterSeq < 0) return outcomeOf((await findTask(child.id))!, target.peer, artifacts, turn);
  const end = await mirrorChild(child, turn, artifacts);
  void refreshRelayCard(target.slug);
  if ('ended' in end) return outcomeOf(end.ended, target.peer, artifacts, turn);
  if (end.stopped === 'shutdown') await aborted(turn.signal);
  else await cancelChild(child, turn);
  return ABORTED;
}
