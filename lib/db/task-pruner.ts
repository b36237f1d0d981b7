/**
 * Deletes finished tasks older than the task retention (SWITCHBOARD_TASK_RETENTION), with
 * everything that belongs to them: events, messages, artifacts, push configs and outbox rows go
 * with the task row (ON DELETE CASCADE, every one of those tables indexed on taskId).
 *
 * What is never deleted, checked by the DELETE statement itself (so nothing can change in
 * between on SQLite's one writer, and on PostgreSQL a task row a writer holds is skipped):
 * - a task that has not ended: submitted, working (also detached), input-required, auth-required
 *   or unknown. Only a terminal state with `endedAt` (set by the terminal claim, and only there)
 *   before the cutoff matches; a terminal task never becomes open again.
 * - a task with an open descendant: the ancestors of every open task are held (a recursive walk
 *   up `parentTaskId` from the open tasks that have a parent, read from an index).
 * - a task with a push delivery or notification still pending: it is still to be sent.
 * - a relay's child while its parent is kept: the parent's log names the child's chunk rows.
 *
 * Bounded and paced like the outbox pruner (prune-batches.ts): oldest end first,
 * TASK_PRUNE_BATCH tasks per statement, at most a tenth of the time spent pruning; on
 * PostgreSQL `FOR UPDATE … SKIP LOCKED`, so instances pruning at once split the work.
 */
import { sqliteTime } from './task-store';
import { OPEN_STATES, TERMINAL_STATES } from '../protocol/types';
import { deleteInBatches, type PruneStatement } from './prune-batches';
import { CHUNK_REF_TYPE } from './event-refs';

/**
 * Tasks per statement: a finished task is a row with about ten more (events, messages,
 * artifacts) going with it, so 100 tasks are about the outbox pruner's 1,000 rows.
 */
export const TASK_PRUNE_BATCH = 100;

const quoted = (states: readonly string[]) => states.map((s) => `'${s}'`).join(', ');
const OPEN = quoted(OPEN_STATES);
const ENDED = quoted(TERMINAL_STATES);

/** Every task some open task descends from. */
const HELD = `WITH RECURSIVE "held"("id") AS (
  SELECT "parentTaskId" FROM "Task" WHERE "state" IN (${OPEN}) AND "parentTaskId" IS NOT NULL
  UNION
  SELECT "up"."parentTaskId" FROM "Task" "up" JOIN "held" ON "up"."id" = "held"."id" WHERE "up"."parentTaskId" IS NOT NULL
)`;

/**
 * `plus` is SQLite's `+`, which keeps an outbox lookup on its taskId index (not every pending row).
 * A relay's child goes after its parent: the parent's log names the child's chunk rows
 * (event-refs.ts, decision 420).
 */
const nothingPending = (plus: string) => `NOT EXISTS (SELECT 1 FROM "held" WHERE "held"."id" = "t"."id")
  AND NOT EXISTS (SELECT 1 FROM "TaskEvent" "r" WHERE "r"."taskId" = "t"."parentTaskId" AND ${plus}"r"."type" = '${CHUNK_REF_TYPE}')
  AND NOT EXISTS (SELECT 1 FROM "PushDelivery" "p" WHERE "p"."taskId" = "t"."id" AND ${plus}"p"."state" = 'pending')
  AND NOT EXISTS (SELECT 1 FROM "NotificationDelivery" "n" WHERE "n"."taskId" = "t"."id" AND ${plus}"n"."state" = 'pending')`;

/**
 * SQLite: `+"state"` keeps the planner on the endedAt index (a range up to the cutoff) instead
 * of the state index, where the finished states are nearly every row. The plans:
 * bench/scenarios/query-plans.ts.
 */
export const TASK_PRUNE: PruneStatement = {
  sqlite: `${HELD}
DELETE FROM "Task" WHERE rowid IN (
  SELECT "t".rowid FROM "Task" "t" WHERE "t"."endedAt" < ? AND +"t"."state" IN (${ENDED}) AND ${nothingPending('+')}
  ORDER BY "t"."endedAt" LIMIT ?)`,
  pg: `${HELD}
DELETE FROM "Task" WHERE ctid = ANY(ARRAY(
  SELECT "t".ctid FROM "Task" "t" WHERE "t"."endedAt" < $1 AND "t"."state" IN (${ENDED}) AND ${nothingPending('')}
  ORDER BY "t"."endedAt" LIMIT $2 FOR UPDATE OF "t" SKIP LOCKED))`,
};

/** Deletes the tasks that ended before `now - retentionMs` (and may go), `batch` per statement; how many. */
export function pruneFinishedTasks(retentionMs: number, now = new Date(), batch = TASK_PRUNE_BATCH): Promise<number> {
  return deleteInBatches(TASK_PRUNE, [sqliteTime(new Date(now.getTime() - retentionMs))], batch);
}
