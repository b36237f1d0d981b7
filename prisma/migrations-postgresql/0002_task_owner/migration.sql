-- PostgreSQL twin of prisma/migrations/0002_task_owner.
-- Who owns an inbound task (and its context): the creating API key's id, "anonymous" in open
-- mode, or "self" for the built-in self peer. Outbound tasks have no owner (operator only).
ALTER TABLE "Task" ADD COLUMN "owner" TEXT;
-- The owner's name when the task was created (the key's name), for the dashboard.
ALTER TABLE "Task" ADD COLUMN "ownerName" TEXT;
-- Tasks from before owners were recorded belong to the shared open-mode owner.
UPDATE "Task" SET "owner" = 'anonymous', "ownerName" = 'anonymous' WHERE "direction" = 'inbound';
-- ListTasks and the context check look tasks up per agent and owner.
CREATE INDEX "Task_agentSlug_owner_createdAt_idx" ON "Task"("agentSlug", "owner", "createdAt");
