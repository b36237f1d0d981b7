/**
 * What the engine lends the store's membership at start (lib/db/membership.ts): how a turn a
 * previous life left is ended or resumed, and the relay of other instances' commits. Built here,
 * above both, because the members live in lib/db and may not import the engine.
 */
import { getSettings } from '../config/settings';
import { instanceId } from '../db/instance';
import { INSTANCE_LOST, type MemberHost, type OrphanedTurn } from '../db/membership';
import { eventHub } from '../events/hub';
import { PgEventRelay } from '../events/pg-relay';
import { agentText, claimTerminal, executions, INTERRUPTED_RESTART, recoverInterruptedTasks, resumeStrandedTurns, turnResumer } from '../engine';

const endText = (turn: OrphanedTurn, cause: 'restart' | 'lost') =>
  cause === 'lost'
    ? `Task failed: ${INSTANCE_LOST} (instance ${turn.instance ?? 'unknown'} stopped renewing its lease while it ran).`
    : `Task failed: ${INTERRUPTED_RESTART} (Switchboard stopped while it ran; its execution could not be resumed).`;

export function memberHost(): MemberHost {
  return {
    async recoverAlone() {
      await resumeStrandedTurns(); // relays: their work went on at the peer
      await recoverInterruptedTasks();
    },
    runsHere: (taskId) => Boolean(executions().get(taskId)),
    endTurn: (turn, cause) =>
      claimTerminal(turn.id, { state: 'failed', reason: cause === 'lost' ? INSTANCE_LOST : INTERRUPTED_RESTART, message: agentText(turn.id, turn.contextId, endText(turn, cause)) }).then(Boolean),
    resumeTurn: turnResumer, // a relay turn nobody alive holds is resumed, not ended
    openRelay: () => new PgEventRelay(getSettings().databaseUrl, instanceId(), eventHub()),
  };
}
