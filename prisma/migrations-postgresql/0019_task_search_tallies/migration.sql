-- PostgreSQL twin of prisma/migrations/0019_task_search_tallies.
-- Issue 28: no list, search or count query reads every task (bench/query-plans.ts shows the plans).
-- Tables whose names start with "_" are not Prisma models: lib/db reads them with its own SQL.

-- The agent filter matches a served agent or a peer: listTasks walks each of these in createdAt
-- order for a page and merges the two, instead of walking every task for a rare one.
CREATE INDEX "Task_agentSlug_createdAt_idx" ON "Task"("agentSlug", "createdAt");
CREATE INDEX "Task_peerName_createdAt_idx" ON "Task"("peerName", "createdAt");

-- Text search: trigram indexes serve the dashboard's ILIKE '%…%' (a substring, any case) as it is;
-- the planner picks them for a rare text and walks the createdAt index for a frequent one.
-- pg_trgm ships with PostgreSQL and is a trusted extension (the database owner may create it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "Task_requestText_trgm_idx" ON "Task" USING gin ("requestText" gin_trgm_ops);
CREATE INDEX "Task_resultText_trgm_idx" ON "Task" USING gin ("resultText" gin_trgm_ops);

-- Tallies: tasks per (direction, agent, peer, state, detached), kept by a trigger in the
-- transaction that inserts, changes or deletes the task; "" for no agent/peer. Each connection adds
-- to its own rows ("shard" = its backend pid), so two instances' writers never wait on, or deadlock
-- over, one hot row; the pruner folds the rows of other shards into shard 0 (lib/db/task-tallies.ts).
CREATE TABLE "_task_tally" (
  "shard" INTEGER NOT NULL,
  "direction" TEXT NOT NULL,
  "agent" TEXT NOT NULL,
  "peer" TEXT NOT NULL,
  "state" TEXT NOT NULL,
  "detached" BOOLEAN NOT NULL,
  "count" BIGINT NOT NULL,
  PRIMARY KEY ("shard", "direction", "agent", "peer", "state", "detached")
);

INSERT INTO "_task_tally" ("shard", "direction", "agent", "peer", "state", "detached", "count")
SELECT 0, "direction", COALESCE("agentSlug", ''), COALESCE("peerName", ''), "state", "detached", COUNT(*) FROM "Task"
GROUP BY "direction", COALESCE("agentSlug", ''), COALESCE("peerName", ''), "state", "detached";

CREATE FUNCTION "_task_tally_add"(d TEXT, a TEXT, p TEXT, s TEXT, det BOOLEAN, n INTEGER) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "_task_tally" VALUES (pg_backend_pid(), d, COALESCE(a, ''), COALESCE(p, ''), s, det, n)
  ON CONFLICT ("shard", "direction", "agent", "peer", "state", "detached") DO UPDATE SET "count" = "_task_tally"."count" + EXCLUDED."count";
$$;

CREATE FUNCTION "_task_tally_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM "_task_tally_add"(OLD."direction", OLD."agentSlug", OLD."peerName", OLD."state", OLD."detached", -1); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM "_task_tally_add"(NEW."direction", NEW."agentSlug", NEW."peerName", NEW."state", NEW."detached", 1); END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "_task_tally_insert_delete" AFTER INSERT OR DELETE ON "Task" FOR EACH ROW EXECUTE FUNCTION "_task_tally_trigger"();
CREATE TRIGGER "_task_tally_update" AFTER UPDATE OF "direction", "agentSlug", "peerName", "state", "detached" ON "Task" FOR EACH ROW
WHEN (OLD."direction" IS DISTINCT FROM NEW."direction" OR OLD."agentSlug" IS DISTINCT FROM NEW."agentSlug" OR OLD."peerName" IS DISTINCT FROM NEW."peerName"
  OR OLD."state" IS DISTINCT FROM NEW."state" OR OLD."detached" IS DISTINCT FROM NEW."detached")
EXECUTE FUNCTION "_task_tally_trigger"();
