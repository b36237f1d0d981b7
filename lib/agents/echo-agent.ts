import type { AgentRunner } from '../agent-runner';

/** Completes at once with the input text as an artifact. */
export const echoRunner: AgentRunner = {
  touchesOnlyItsTask: true,
  async runTurn(turn) {
    const parts = turn.message.parts.filter((p) => p.kind === 'text');
    return { state: 'completed', artifacts: [{ artifact: { artifactId: 'echo', name: 'echo', parts }, lastChunk: true }] };
  },
};
