import type { AgentRunner } from '../agent-runner';
import { textOf } from '../protocol/types';

/** Answers input-required on the first turn, and completes on the follow-up (text, or data) in the same task. */
export const askRunner: AgentRunner = {
  touchesOnlyItsTask: true,
  async runTurn(turn) {
    if (turn.history.length === 0) {
      return { state: 'input-required', parts: [{ kind: 'text', text: `You asked: "${textOf(turn.message.parts)}". What is your name?` }] };
    }
    // An answer that is not text (a data part, as a tool approval is) is greeted as its JSON.
    const data = turn.message.parts.flatMap((p) => (p.kind === 'data' ? [JSON.stringify(p.data)] : []));
    const answer = textOf(turn.message.parts) || data.join(' ');
    return { state: 'completed', artifacts: [{ artifact: { artifactId: 'answer', name: 'answer', parts: [{ kind: 'text', text: `Hello, ${answer}!` }] } }] };
  },
};
