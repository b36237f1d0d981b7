/**
 * The runner of a relay agent (docs/relay.md). The work is the engine's (an outbound child task
 * mirrored into the inbound one: lib/engine/relay), but agents sit below the engine, so the
 * engine installs its relay turn here at start-up and the runner reaches it through the app slot.
 */
import type { AgentRunner, AgentTurn, TurnOutcome } from '../agent-runner';
import { appPart } from '../process-singleton';

export type RelayTurn = (relay: { peer: string; slug: string }, turn: AgentTurn) => Promise<TurnOutcome>;

const installed = () => appPart('relayTurn', () => ({ run: null }));

/** Called once at boot by the engine (lib/engine/relay). */
export function installRelayTurn(run: RelayTurn): void {
  installed().run = run;
}

export function relayRunner(relay: { peer: string; slug: string }): AgentRunner {
  return {
    async runTurn(turn) {
      const run = installed().run;
      if (!run) return { state: 'failed', reason: 'relay: the relay engine is not started (boot did not run)' };
      return run(relay, turn);
    },
  };
}

declare module '../process-singleton' {
  interface AppParts {
    /** The relay turn the engine installs at start. */
    relayTurn: { run: RelayTurn | null };
  }
}
