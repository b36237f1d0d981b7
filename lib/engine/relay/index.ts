/**
 * Relay agents (docs/relay.md): served agents whose work is an outbound task at a peer. Boot
 * installs the relay turn behind their runner (lib/agents/relay-port.ts) before recovery, so a
 * relay turn stranded by a restart can be resumed, and reads the peers' cards in the background.
 */
import { installRelayTurn } from '../../agents/relay-port';
import { errorMessage, log } from '../../log';
import { loadRelayCards } from './card';
import { runRelayTurn } from './relay-turn';
import { prepareFirstChild } from './child';

export function startRelays(): void {
  installRelayTurn(runRelayTurn, prepareFirstChild);
  void loadRelayCards().catch((err) => log.warn('relay cards not loaded', { error: errorMessage(err) }));
}
