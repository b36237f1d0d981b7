-- Issue 28 at 1M tasks: the detached list and the counts over a time range read an index, not tasks.

-- The detached list (open states, detached): only open tasks are in this index (endedAt is set by
-- the terminal claim and only there), newest first per detached flag, so the list's first page
-- reads one page however many open tasks there are. The list adds "endedAt" IS NULL to its filter
-- (implied by the open states) so the planner may use it (lib/db/task-repo.ts, listWhere).
CREATE INDEX "Task_open_detached_createdAt_idx" ON "Task"("detached", "createdAt") WHERE "endedAt" IS NULL;

-- Counts over a time range (the dashboard's counts with 24h or 7d, with or without the agent
-- filter) group by state and detached: with those two in an index the count reads index entries
-- only, no task rows. Beside the createdAt and agent/peer indexes, not instead of them: without
-- statistics SQLite prefers the narrower of two indexes that give the same order, and the wider
-- ones lost the agent filter's lists to the direction index (measured in bench/query-plans.ts).
-- The peer index also carries agentSlug: the agent filter's peer side leaves out a task its agent
-- side counted (lib/db/task-repo.ts, countTasksByState).
CREATE INDEX "Task_createdAt_state_idx" ON "Task"("createdAt", "state", "detached");
CREATE INDEX "Task_agentSlug_createdAt_state_idx" ON "Task"("agentSlug", "createdAt", "state", "detached");
CREATE INDEX "Task_peerName_createdAt_state_idx" ON "Task"("peerName", "createdAt", "state", "detached", "agentSlug");
