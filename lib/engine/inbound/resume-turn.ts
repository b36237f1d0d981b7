/**
 * Boot's other answer to a stranded turn: a `resumable` agent's turn (a relay's, whose work
 * goes on at the peer) is started again as the same turn (AgentTurn.resumed) instead of ending
 * `interrupted: restart`; a detached one gets the rest of its grace.
 */
import type { ServedAgent } from '../../agent-runner';
import { startTurn } from './run-turn';
import { rearmGrace } from './detach';
import { timingFor } from './timing';
import { findTask, findTasksInStates, listMessages } from '../../db/task-repo';
import type { TurnResumer } from '../../db/membership';
import { findAgent } from '../../agents/registry';
import { log } from '../../log';
import type { TaskRecord } from '../../db/task-records';
import { ANONYMOUS_OWNER } from '../../db/task-scope';

/** Resumes the task's current turn; false when it has no caller message to resume (not resumed). */
async function resumeStrandedTurn(agent: ServedAgent, record: TaskRecord): Promise<boolean> {
  const messages = await listMessages(record.id);
  const users = messages.filter((m) => m.role === 'user');
  const message = users[users.length - 1];
  if (!message) return false;
  const history = messages.slice(0, messages.lastIndexOf(message));
  const owner = record.owner ?? ANONYMOUS_OWNER;
  startTurn({ agent, taskId: record.id, contextId: record.contextId, message, history, peer: record.ownerName ?? owner, owner, turnNumber: users.length, resumed: true });
  if (record.detached && record.detachedAt) rearmGrace(record.id, record.detachedAt, timingFor(agent).graceMs);
  return true;
}

/**
 * Boot, before recoverInterruptedTasks (which then leaves these running): every stranded turn
 * of a resumable agent is resumed. Single instance only; see docs/relay.md for PostgreSQL.
 */
export async function resumeStrandedTurns(): Promise<number> {
  let resumed = 0;
  for (const task of await findTasksInStates(['submitted', 'working'], 'inbound')) {
    const agent = task.agentSlug ? findAgent(task.agentSlug) : undefined;
    if (agent?.resumable && (await resumeStrandedTurn(agent, task))) resumed++;
  }
  if (resumed) log.info('resumed turns a restart interrupted', { count: resumed });
  return resumed;
}

/** The same, for a cluster member's takeover of a gone instance's turns (lib/db/postgres/cluster-member.ts). */
export const turnResumer: TurnResumer = {
  async resumable(taskId) {
    const record = await findTask(taskId);
    return Boolean(record?.agentSlug && findAgent(record.agentSlug)?.resumable);
  },
  async resume(taskId) {
    const record = await findTask(taskId);
    const agent = record?.agentSlug ? findAgent(record.agentSlug) : undefined;
    return Boolean(record && agent?.resumable && (await resumeStrandedTurn(agent, record)));
  },
};
