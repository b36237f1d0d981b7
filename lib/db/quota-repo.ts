/** What the per-caller quotas (lib/quotas) read from the task table. */
import { taskReader } from './client';

/**
 * What the open-task quota compares with its limit (decision 363): while the whole hub has fewer
 * than `atMost` open inbound tasks, that number, read from the tallies (a row per agent and
 * state, not per task), and no task of the caller's is walked; else the caller's own open tasks (index Task(owner, state),
 * migration 0016), counted only up to `atMost`: a caller with 10,000 open tasks must not make every
 * new send count all of them.
 * At least the caller's open tasks, and below `atMost` exactly when they are; as current as the
 * count was (the tallies are written in each task's own transaction, on every instance).
 */
export async function openTasksUpTo(owner: string, atMost: number): Promise<number> {
  return taskReader().openTaskBound(owner, atMost);
}
