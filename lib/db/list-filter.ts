/**
 * Two rewrites of the task list's filter that keep what matches and let every store answer from
 * an index (decisions 302 and 305: no list, search or count reads every task; bench/query-plans.ts).
 */
import { isTerminalState } from '../protocol/types';
import type { TaskListFilter } from './task-repo';

/**
 * True when the filter names only open states: such a task has no endedAt (the terminal claim,
 * and only it, sets it), so the filter may add `endedAt IS NULL`, which is what lets the planner
 * read the partial index of open tasks (migration 0020) instead of every open state's rows. Only
 * for the detached list (detached = true), whose rows that index holds in order.
 */
export const onlyOpenDetached = (f: Pick<TaskListFilter, 'states' | 'detached'>): boolean =>
  f.detached === true && !!f.states?.length && f.states.every((s) => !isTerminalState(s));

/**
 * The agent filter (`agentSlug = name OR peerName = name`) as one filter per side, each served by
 * its own index in createdAt order; an OR no index orders. Empty agent side when the caller's
 * scope already fixes another agent. `exclusive`: the peer side leaves out the tasks the agent side
 * has (a count adds the sides up; a list merges them by id and needs no such rule).
 */
export function agentSides<F extends Omit<TaskListFilter, 'limit'>>(f: F, exclusive = false): F[] {
  const name = f.agentOrPeer;
  if (!name) return [f];
  const rest = { ...f, agentOrPeer: undefined };
  const agentSide = rest.agentSlug === undefined || rest.agentSlug === name ? [{ ...rest, agentSlug: name }] : [];
  const peerSide = { ...rest, peerName: name, ...(exclusive && agentSide.length ? { notAgentSlug: name } : {}) };
  return [...agentSide, peerSide];
}
