/** What the per-caller quotas (lib/quotas) read from the task table. */
import { OPEN_STATES } from '../protocol/types';
import { db } from './client';

/** The inbound tasks `owner` has that have not ended (index Task(owner, state), migration 0016). */
export async function countOpenTasksOf(owner: string): Promise<number> {
  return db().task.count({ where: { owner, direction: 'inbound', state: { in: [...OPEN_STATES] } } });
}
