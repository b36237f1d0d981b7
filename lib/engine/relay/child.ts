/**
 * A relay turn's peer task: the outbound child of the inbound task, started, continued or found
 * again through the one dispatch path (lib/engine/outbound/dispatch.ts). The peer sees only the
 * caller's message parts: no caller metadata, headers or credentials cross the hop.
 */
import type { AgentTurn, FirstTurnFacts, FirstTurnWork } from '../../agent-runner';
import { dispatchTask, prepareChildDispatch } from '../outbound/dispatch';
import { appPart } from '../../process-singleton';
import { readFollowState } from '../outbound/follow-state';
import { findTask } from '../../db/task-repo';
import { latestChildInContext, latestOutboundChild } from '../../db/task-graph';
import type { TaskRecord } from '../../db/task-records';
import { textOf, type Message } from '../../protocol/types';

export interface RelayTarget {
  /** The configured peer the relay agent is served by. */
  peer: string;
  slug: string;
}

/** A relay's dispatches reuse the peer's card read this recently (refreshed by the next read after it). */
const RELAY_CARD_MAX_AGE_MS = 30_000;

/** The child to mirror, and the seq of its log after which this turn's events begin. */
export interface RelayChild {
  id: string;
  afterSeq: number;
}

/** The peer context this caller's context maps to: the one its previous peer task ran in. */
async function peerContextFor(target: RelayTarget, turn: AgentTurn): Promise<string | undefined> {
  if (turn.freshContext) return undefined; // a context minted for this task has no previous peer task (no read)
  const previous = await latestChildInContext(target.slug, turn.owner, turn.contextId);
  const record = previous ? await findTask(previous) : null;
  return (record && readFollowState(record)?.remoteContextId) || undefined;
}

const dispatchText = (message: Message) => textOf(message.parts) || '(no text)';

/** A new peer task for the turn that created the inbound task (unless it was created with it). */
export async function startChild(target: RelayTarget, turn: AgentTurn): Promise<RelayChild> {
  const created = createdWith().take(turn.taskId);
  if (created) return { id: created, afterSeq: 0 };
  const contextId = await peerContextFor(target, turn);
  const { taskId } = await dispatchTask(
    { peer: target.peer, text: dispatchText(turn.message), mode: 'streaming', parentTaskId: turn.taskId, ...(contextId ? { contextId } : {}) },
    { parts: turn.message.parts, maxCardAgeMs: RELAY_CARD_MAX_AGE_MS },
  );
  return { id: taskId, afterSeq: 0 };
}

/** Children created in their caller's task's first commit, by that task's id, until its turn takes them. */
class CreatedWith {
  private readonly children = new Map<string, string>();

  add(taskId: string, childId: string): void {
    this.children.set(taskId, childId);
  }

  take(taskId: string): string | undefined {
    const childId = this.children.get(taskId);
    this.children.delete(taskId);
    return childId;
  }
}

const createdWith = () => appPart('relayChildrenCreatedWith', () => new CreatedWith());

/**
 * A relay's first turn in a fresh context (no previous peer context to look up) whose peer's
 * card is recent: its child is created in the caller's task's first commit, connected and
 * `sent` (decision 371), and started once both committed. The restart rule is `sent`'s: a
 * restart finds the child and looks its peer task up, never sends again.
 */
export async function prepareFirstChild(target: RelayTarget, facts: FirstTurnFacts): Promise<FirstTurnWork | null> {
  if (!facts.freshContext) return null;
  const creation = await prepareChildDispatch(
    { peer: target.peer, text: dispatchText(facts.message), mode: 'streaming' },
    { parts: facts.message.parts, maxCardAgeMs: RELAY_CARD_MAX_AGE_MS },
  );
  if (!creation) return null;
  return {
    begin(task) {
      const child = creation.create(task);
      return {
        async start() {
          if (await child.start()) createdWith().add(task.id, child.taskId);
        },
        abandon: (reason) => child.abandon(reason),
      };
    },
  };
}

declare module '../../process-singleton' {
  interface AppParts {
    /** Relay children created with their caller's task, waiting for its turn. */
    relayChildrenCreatedWith: CreatedWith;
  }
}

export async function currentChild(turn: AgentTurn): Promise<TaskRecord | null> {
  const id = await latestOutboundChild(turn.taskId);
  return id ? findTask(id) : null;
}

/**
 * The caller answered the input the peer asked for: the answer goes to the SAME peer task (a
 * follow-up dispatch of the child). Null when the child does not wait for input.
 */
export async function continueChild(child: TaskRecord, turn: AgentTurn): Promise<RelayChild | null> {
  if (child.state !== 'input-required' && child.state !== 'auth-required') return null;
  await dispatchTask({ taskId: child.id, text: dispatchText(turn.message), mode: 'streaming' }, { parts: turn.message.parts });
  return { id: child.id, afterSeq: child.lastSeq };
}
