-- PostgreSQL twin of prisma/migrations/0022_task_index_diet.
-- Issue 28, the framework floor: every index on "Task" is written by every task insert and by
-- every change of a column it holds, in the group commit of a send. Fewer, and only the rows a
-- query asks for (decision 362; the plans of every list, search and count: bench/query-plans.ts).

-- A prefix of a wider index that 0020 added: the wider one gives the same order and range.
DROP INDEX "Task_createdAt_idx";
DROP INDEX "Task_agentSlug_createdAt_idx";
DROP INDEX "Task_peerName_createdAt_idx";

-- Replaced by a wider one, not more of them: without the two narrow agent and peer indexes
-- above, SQLite (no statistics: it prefers the narrower of two indexes that give the same
-- order) answered the outbound list's agent filter (direction = ? AND peerName = ?) from the
-- direction index, every outbound task in turn; as wide as the peer index it picks the agent
-- or peer index again (tests/plans/task-list-plans.test.ts). The width also makes an outbound
-- count's partial hour (state, detached) a read of this index alone.
DROP INDEX "Task_direction_createdAt_idx";
CREATE INDEX "Task_direction_createdAt_idx" ON "Task"("direction", "createdAt", "state", "detached", "agentSlug");

-- Only outbound tasks have a peer and only delegated tasks a parent: an inbound task without a
-- parent (every echo send) now writes none of these. Each query that reads them compares the
-- column to a value (peerName = ?, parentTaskId = ? or IS NOT NULL), which implies the condition.
DROP INDEX "Task_peerName_createdAt_state_idx";
CREATE INDEX "Task_peerName_createdAt_state_idx" ON "Task"("peerName", "createdAt", "state", "detached", "agentSlug") WHERE "peerName" IS NOT NULL;
DROP INDEX "Task_parentTaskId_idx";
-- With direction and createdAt after the parent, a relay's newest peer task (parentTaskId = ?
-- AND direction = 'outbound', newest first) is one index probe: a parent-only index lost to the
-- direction index's order, which walks every outbound task.
CREATE INDEX "Task_parentTaskId_idx" ON "Task"("parentTaskId", "direction", "createdAt") WHERE "parentTaskId" IS NOT NULL;
DROP INDEX "Task_state_parentTaskId_idx";
CREATE INDEX "Task_state_parentTaskId_idx" ON "Task"("state", "parentTaskId") WHERE "parentTaskId" IS NOT NULL;
