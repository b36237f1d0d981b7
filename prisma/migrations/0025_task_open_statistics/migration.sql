-- PostgreSQL twin: prisma/migrations-postgresql/0025_task_open_statistics (planner statistics for
-- the detached list). Nothing to do on SQLite: its planner keeps no statistics here, and it
-- already walks "Task_open_detached_createdAt_idx" for that list (tests/plans/task-list-plans.test.ts).
SELECT 1;
