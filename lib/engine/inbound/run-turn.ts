/**
 * Runs one agent turn in the background, detached from whoever asked for it: the HTTP caller
 * may leave, the window may end; the turn's real outcome is still recorded.
 */
import type { AgentTurn, ServedAgent, TurnOutcome } from '../../agent-runner';
import { claimTerminal, recordChunkRun, recordEvents } from '../core/task-writer';
import { agentMessage, agentText } from '../core/messages';
import { executions, type TurnAbort } from '../core/executions';
import { onTurnStarted } from '../core/membership';
import { EmitPipe } from '../core/emit-pipe';
import { loadConversation } from './conversation';
import type { ArtifactChunk } from '../../protocol/types';
import { errorMessage, log } from '../../log';
import { metrics } from '../../metrics/metrics';
import { beginTurnSpan } from '../../tracing/spans';

/** What starts a turn: the agent, the turn's facts as the agent gets them, and its number. */
export interface TurnStart extends Pick<AgentTurn, 'taskId' | 'contextId' | 'message' | 'history' | 'peer' | 'owner'> {
  agent: ServedAgent;
  /** 1 for the message that created the task, +1 for each answer after input-required. */
  turnNumber: number;
  /** Boot resumes a turn a restart stranded (a `resumable` agent's): AgentTurn.resumed. */
  resumed?: boolean;
  /** AgentTurn.freshContext: the task's context was minted for it. */
  freshContext?: boolean;
}

/** Appends made by a running turn are refused once the task is no longer working. */
const WHILE_WORKING = { onlyIfStateIn: ['working'] as const };

/**
 * An AbortController made on first use: most turns (echo) never look at their signal, and in
 * Node 20 each AbortSignal costs ~10 µs to create (it is made transferable); measured per send.
 */
class LazyAbort implements TurnAbort {
  private controller?: AbortController;
  private early?: { reason: unknown };

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.early) this.controller.abort(this.early.reason);
    }
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.controller ? this.controller.signal.aborted : this.early !== undefined;
  }

  abort(reason?: unknown): void {
    if (this.controller) this.controller.abort(reason);
    else this.early ??= { reason };
  }
}

export function startTurn(start: TurnStart): void {
  const controller = new LazyAbort();
  const pipe = new EmitPipe<ArtifactChunk>((chunks) => recordChunkRun(start.taskId, chunks.map((payload) => ({ type: 'artifact' as const, payload })), WHILE_WORKING));
  const turn: AgentTurn = {
    taskId: start.taskId,
    contextId: start.contextId,
    message: start.message,
    history: start.history,
    peer: start.peer,
    owner: start.owner,
    turnNumber: start.turnNumber,
    ...(start.resumed ? { resumed: true } : {}),
    ...(start.freshContext ? { freshContext: true } : {}),
    conversation: (bounds) =>
      loadConversation({ taskId: start.taskId, contextId: start.contextId, agentSlug: start.agent.slug, owner: start.owner, messageId: start.message.messageId }, bounds),
    get signal() {
      return controller.signal;
    },
    emit: {
      // Pipelined (core/emit-pipe.ts): an emit returns once queued; the turn's end waits for all.
      // Chunks emitted in one event-loop turn are written together (EmitPipe.pushChunk).
      // Progress is the task's current status message, so a caller that polls (tasks/get)
      // sees it, also after a detach (the detach facts stay in metadata.switchboard).
      progress: (text, metadata) =>
        pipe.push(() => {
          const message = agentText(start.taskId, start.contextId, text, metadata);
          return recordEvents(start.taskId, [{ type: 'status', state: 'working', payload: { message } }], WHILE_WORKING);
        }),
      artifact: (chunk: ArtifactChunk) => pipe.pushChunk(chunk),
      artifacts: (chunks: ArtifactChunk[]) => pipe.push(() => recordEvents(start.taskId, chunks.map((payload) => ({ type: 'artifact' as const, payload })), WHILE_WORKING), chunks.length),
    },
  };
  const done = runAndRecord(start, turn, pipe, controller);
  const agent = { slug: start.agent.slug, launcher: start.agent.launcher === true, resumable: start.agent.resumable === true };
  executions().add({ taskId: start.taskId, contextId: start.contextId, controller, done, agent });
  onTurnStarted(start.taskId, done, { resumable: start.agent.resumable });
}

async function runAndRecord(start: TurnStart, turn: AgentTurn, pipe: EmitPipe<ArtifactChunk>, controller: LazyAbort): Promise<void> {
  let outcome: TurnOutcome;
  const span = beginTurnSpan(start.taskId, start.contextId, start.agent.slug);
  try {
    outcome = await start.agent.runner.runTurn(turn);
    await pipe.drain();
  } catch (err) {
    pipe.issuePending(); // its chunks are written before the failure, as if each had been written when emitted
    log.error('agent turn threw', { taskId: start.taskId, agent: start.agent.slug, error: errorMessage(err) });
    outcome = { state: 'failed', reason: `agent error: ${errorMessage(err)}` };
  }
  span.end(outcome.state === 'failed' ? outcome.reason : undefined, { 'a2a.task.state': outcome.state });
  if (controller.aborted) return; // whoever aborted already claimed the end
  await recordOutcome(start, outcome);
}

async function recordOutcome(start: TurnStart, outcome: TurnOutcome): Promise<void> {
  const { taskId, contextId } = start;
  if (outcome.state === 'input-required') {
    const message = agentMessage(taskId, contextId, outcome.parts, outcome.metadata);
    await recordEvents(taskId, [{ type: 'status', state: 'input-required', payload: { message } }], {
      ...WHILE_WORKING,
      messages: [message],
    });
    return;
  }
  if (outcome.state === 'message') {
    // Only the turn that created the task can be answered with a Message (its caller has no
    // task yet); a later turn's direct message simply completes the task the caller holds.
    const message = agentMessage(taskId, contextId, outcome.parts, outcome.metadata);
    await claimTerminal(taskId, { state: 'completed', message, directReply: start.turnNumber === 1 });
    return;
  }
  const reason = outcome.state === 'failed' || outcome.state === 'rejected' ? outcome.reason : undefined;
  const parts = outcome.parts ?? (reason ? [{ kind: 'text' as const, text: reason }] : undefined);
  const metadata = 'metadata' in outcome ? outcome.metadata : undefined;
  const artifacts = outcome.state === 'completed' ? (outcome.artifacts ?? []) : [];
  const won = await claimTerminal(taskId, {
    state: outcome.state,
    events: artifacts.map((chunk) => ({ type: 'artifact' as const, payload: chunk })),
    reason,
    metadata,
    message: parts ? agentMessage(taskId, contextId, parts, reason ? { ...metadata, reason } : metadata) : undefined,
  });
  // A result that arrived after the caller was answered WORKING (within the grace).
  if (won?.task.detached) metrics().lateResults.inc({ agent: start.agent.slug, state: outcome.state });
}
