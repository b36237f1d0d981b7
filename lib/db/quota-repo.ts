/** What the per-caller quotas (lib/quotas) read from the task table. */
import { taskReader } from './client';

/**
 * The inbound tasks `owner` has that have not ended (index Task(owner, state), migration 0016),
 * counted up to `atMost`: the quota only asks whether the limit is reached, and a caller with
 * 10,000 open tasks made every new send count all of them (a quadratic burst). A hot-path
 * read (prepared statement), not Prisma: every new task asks it.
 */
export async function countOpenTasksOf(owner: string, atMost: number): Promise<number> {
  return taskReader().openTaskCount(owner, atMost);
}
