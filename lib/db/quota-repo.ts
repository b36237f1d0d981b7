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

/**
 * What the open-task quota compares with its limit (decision 363): while the whole hub has fewer
 * than `atMost` open inbound tasks, that number, read from the tallies (a row per agent and
 * state, not per task), and no task of the caller's is walked; else countOpenTasksOf's count.
 * At least the caller's open tasks, and below `atMost` exactly when they are; as current as the
 * count was (the tallies are written in each task's own transaction, on every instance).
 */
export async function openTasksUpTo(owner: string, atMost: number): Promise<number> {
  return taskReader().openTaskBound(owner, atMost);
}
