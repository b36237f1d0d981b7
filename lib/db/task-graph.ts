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
