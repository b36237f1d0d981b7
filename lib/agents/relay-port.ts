/**
 * The runner of a relay agent (docs/relay.md). The work is the engine's (an outbound child task
 * mirrored into the inbound one: lib/engine/relay), but agents sit below the engine, so the
 * engine installs its relay turn here at start-up and the runner reaches it through the app slot.
 */
import type { AgentRunner, AgentTurn, FirstTurnFacts, FirstTurnWork, TurnOutcome } from '../agent-runner';
import { appPart } from '../process-singleton';

type Relay = { peer: string; slug: string };
export type RelayTurn = (relay: Relay, turn: AgentTurn) => Promise<TurnOutcome>;
export type RelayFirstTurn = (relay: Relay, facts: FirstTurnFacts) => Promise<FirstTurnWork | null>;

const installed = () => appPart('relayTurn', (): { run: RelayTurn | null; prepare: RelayFirstTurn | null } => ({ run: null, prepare: null }));

/** Called once at boot by the engine (lib/engine/relay). */
export function installRelayTurn(run: RelayTurn, prepare: RelayFirstTurn): void {
  installed().run = run;
  installed().prepare = prepare;
}

export function relayRunner(relay: { peer: string; slug: string }): AgentRunner {
  return {
    async runTurn(turn) {
      const run = installed().run;
      if (!run) return { state: 'failed', reason: 'relay: the relay engine is not started (boot did not run)' };
      return run(relay, turn);
    },
    async prepareFirstTurn(facts) {
      return (await installed().prepare?.(relay, facts)) ?? null;
    },
  };
}

declare module '../process-singleton' {
  interface AppParts {
    /** The relay turn the engine installs at start. */
    relayTurn: { run: RelayTurn | null; prepare: RelayFirstTurn | null };
  }
}
