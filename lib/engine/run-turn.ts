/**
 * Runs one agent turn in the background, detached from whoever asked for it: the HTTP caller
 * may leave, the window may end; the turn's real outcome is still recorded (design §1 rule 2).
 */
import type { AgentTurn, ServedAgent, TurnOutcome } from './agent';
import { claimTerminal, recordEvents } from './task-writer';
import { agentMessage, agentText } from './messages';
import { executions } from './executions';
import { EmitPipe } from './emit-pipe';
import type { ArtifactChunk, Message } from '../protocol/types';
import { errorMessage, log } from '../log';

export interface TurnStart {
  agent: ServedAgent;
  taskId: string;
  contextId: string;
  message: Message;
  history: Message[];
  peer: string;
}

/** Appends made by a running turn are refused once the task is no longer working. */
const WHILE_WORKING = { onlyIfStateIn: ['working'] as const };

export function startTurn(start: TurnStart): void {
  const controller = new AbortController();
  const pipe = new EmitPipe();
  const turn: AgentTurn = {
    taskId: start.taskId,
    contextId: start.contextId,
    message: start.message,
    history: start.history,
    peer: start.peer,
    signal: controller.signal,
    emit: {
      // Pipelined (emit-pipe.ts): an emit returns once queued; the turn's end waits for all.
      progress: (text, metadata) =>
        pipe.push(() =>
          recordEvents(
            start.taskId,
            [{ type: 'status', state: 'working', payload: { message: agentText(start.taskId, start.contextId, text, metadata) } }],
            WHILE_WORKING,
          ),
        ),
      artifact: (chunk: ArtifactChunk) => pipe.push(() => recordEvents(start.taskId, [{ type: 'artifact', payload: chunk }], WHILE_WORKING)),
    },
  };
  const done = runAndRecord(start, turn, pipe);
  executions().add({ taskId: start.taskId, contextId: start.contextId, controller, done });
}

async function runAndRecord(start: TurnStart, turn: AgentTurn, pipe: EmitPipe): Promise<void> {
  let outcome: TurnOutcome;
  try {
    outcome = await start.agent.runner.runTurn(turn);
    await pipe.drain();
  } catch (err) {
    log.error('agent turn threw', { taskId: start.taskId, agent: start.agent.slug, error: errorMessage(err) });
    outcome = { state: 'failed', reason: `agent error: ${errorMessage(err)}` };
  }
  if (turn.signal.aborted) return; // whoever aborted already claimed the end
  await recordOutcome(start, outcome);
}

async function recordOutcome(start: TurnStart, outcome: TurnOutcome): Promise<void> {
  const { taskId, contextId } = start;
  if (outcome.state === 'input-required') {
    const message = agentMessage(taskId, contextId, outcome.parts, outcome.metadata);
    await recordEvents(taskId, [{ type: 'status', state: 'input-required', payload: { message } }], {
      ...WHILE_WORKING,
      messages: [message],
      patch: { state: 'input-required', statusMessage: message },
    });
    return;
  }
  const reason = outcome.state === 'failed' || outcome.state === 'rejected' ? outcome.reason : undefined;
  const parts = outcome.parts ?? (reason ? [{ kind: 'text' as const, text: reason }] : undefined);
  const metadata = 'metadata' in outcome ? outcome.metadata : undefined;
  await claimTerminal(taskId, {
    state: outcome.state,
    reason,
    metadata,
    message: parts ? agentMessage(taskId, contextId, parts, reason ? { ...metadata, reason } : metadata) : undefined,
  });
}
