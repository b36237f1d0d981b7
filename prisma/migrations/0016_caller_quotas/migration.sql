-- Per-caller quotas (issue 27, docs/decisions.md 216-223).
-- An API key's own limits (JSON {requestsPerSecond?, openTasks?, storedBytes?}); null: the defaults.
ALTER TABLE "ApiKey" ADD COLUMN "quotas" TEXT;
-- A caller's open tasks are counted at each new task.
CREATE INDEX "Task_owner_state_idx" ON "Task"("owner", "state");
-- rate-limiter-flexible's PostgreSQL store; SQLite keeps the counters in memory, the table is
-- here only so both stores have one schema.
CREATE TABLE "QuotaCounter" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT
);
