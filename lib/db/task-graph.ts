/** The delegation graph's reads: a task's children (tasks whose parentTaskId is it). */
import { db } from './client';

export interface ChildTask {
  id: string;
  direction: string;
  state: string;
  agentSlug: string | null;
  peerName: string | null;
  peerUrl: string | null;
  remoteTaskId: string | null;
  createdAt: string;
  endedAt: string | null;
}

/** At most `limit` children, oldest first (a parent rarely has many; the bound keeps it so). */
export async function listChildTasks(parentTaskId: string, limit = 100): Promise<ChildTask[]> {
  const rows = await db().task.findMany({
    where: { parentTaskId },
    orderBy: { createdAt: 'asc' },
    take: limit,
    select: { id: true, direction: true, state: true, agentSlug: true, peerName: true, peerUrl: true, remoteTaskId: true, createdAt: true, endedAt: true },
  });
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), endedAt: r.endedAt?.toISOString() ?? null }));
}

/** The newest outbound child of a task (a relay agent's peer task for it), or null. */
export async function latestOutboundChild(parentTaskId: string): Promise<string | null> {
  const row = await db().task.findFirst({ where: { parentTaskId, direction: 'outbound' }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], select: { id: true } });
  return row?.id ?? null;
}

/** How many of a context's newest tasks are searched for its relay child (older ones are not). */
const CONTEXT_TASKS_SEARCHED = 200;

/**
 * The newest outbound child of an agent's inbound tasks in one caller's context: where a relay
 * agent finds the peer's context that this (caller, context) maps to (docs/relay.md). Contexts
 * belong to one owner and agent, so the inbound tasks are that caller's only.
 */
export async function latestChildInContext(agentSlug: string, owner: string, contextId: string): Promise<string | null> {
  // By the context alone, so the planner takes the context index: with the agent and owner in
  // the filter it walked every task of this caller at this agent through (agentSlug, owner, createdAt).
  const newest = await db().task.findMany({
    where: { contextId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: CONTEXT_TASKS_SEARCHED,
    select: { id: true, agentSlug: true, owner: true, direction: true },
  });
  // The writers keep a context to one owner and agent (ContextTakenError); checked here again all the same.
  const parents = newest.filter((t) => t.direction === 'inbound' && t.agentSlug === agentSlug && t.owner === owner);
  if (!parents.length) return null;
  const row = await db().task.findFirst({
    where: { parentTaskId: { in: parents.map((p) => p.id) }, direction: 'outbound' },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true },
  });
  return row?.id ?? null;
}
