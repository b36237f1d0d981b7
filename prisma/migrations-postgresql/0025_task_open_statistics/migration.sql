-- Issue 28 at 362,000 tasks on PostgreSQL: the detached list (open states, detached, "endedAt"
-- IS NULL) read every open task. The planner multiplies the three conditions' selectivities as if
-- they were independent, but every detached task is open and unended: it expected 17 rows where
-- 7,217 matched, and so preferred a bitmap AND of the detached index (0020) and the state index,
-- then a sort of every match (101 ms), to walking "Task_open_detached_createdAt_idx" newest
-- first until the page is full (0.3 ms). A multivariate MCV list over the three columns gives it
-- the real share of (working, detached, no end) rows. The ANALYZE collects it now rather than at
-- autovacuum's next pass (a sample of the table, not a read of every row).
CREATE STATISTICS "Task_state_detached_endedAt_stat" (mcv) ON "state", "detached", "endedAt" FROM "Task";
ANALYZE "Task";
