-- PostgreSQL twin of prisma/migrations/0013_task_retention.
-- Finished tasks are pruned after SWITCHBOARD_TASK_RETENTION (lib/db/task-pruner.ts, issue 28).
-- "endedAt" is set by the terminal claim and only there: the pruner walks this index from the
-- oldest end up to the cutoff instead of reading every finished task.
CREATE INDEX "Task_endedAt_idx" ON "Task"("endedAt");
-- A parent is kept while any descendant is open: the pruner reads the parents of open tasks
-- from this index alone (state, then parent), without touching a row per open task.
CREATE INDEX "Task_state_parentTaskId_idx" ON "Task"("state", "parentTaskId");
