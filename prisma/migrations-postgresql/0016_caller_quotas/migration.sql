-- PostgreSQL twin of prisma/migrations/0016_caller_quotas.
-- Per-caller quotas (issue 27, docs/decisions.md 216-223).
-- An API key's own limits (JSON {requestsPerSecond?, openTasks?, storedBytes?}); null: the defaults.
ALTER TABLE "ApiKey" ADD COLUMN "quotas" TEXT;
-- A caller's open tasks are counted at each new task.
CREATE INDEX "Task_owner_state_idx" ON "Task"("owner", "state");
-- The counters of rate-limiter-flexible's PostgreSQL store (lib/quotas/counters.ts), shared by
-- every instance: the columns are the ones the library's own CREATE TABLE would make.
CREATE TABLE "QuotaCounter" (
    "key" VARCHAR(255) NOT NULL PRIMARY KEY,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT
);
