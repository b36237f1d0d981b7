import type { AgentRunner } from '../engine/agent';
import { textOf } from '../protocol/types';

/** Answers input-required on the first turn, and completes on the follow-up in the same task. */
export const askRunner: AgentRunner = {
  async runTurn(turn) {
    if (turn.history.length === 0) {
      return { state: 'input-required', parts: [{ kind: 'text', text: `You asked: "${textOf(turn.message.parts)}". What is your name?` }] };
    }
    const answer = textOf(turn.message.parts);
    return { state: 'completed', artifacts: [{ artifact: { artifactId: 'answer', name: 'answer', parts: [{ kind: 'text', text: `Hello, ${answer}!` }] } }] };
  },
};
