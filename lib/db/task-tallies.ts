/** Tasks per (state, direction), for the metrics gauge: one grouped count at scrape time. */
import { db } from './client';

export interface TaskTally {
  state: string;
  direction: string;
  count: number;
}

export async function tallyTasksByState(): Promise<TaskTally[]> {
  const rows = await db().task.groupBy({ by: ['state', 'direction'], _count: { _all: true } });
  return rows.map((r) => ({ state: r.state, direction: r.direction, count: r._count._all }));
}
