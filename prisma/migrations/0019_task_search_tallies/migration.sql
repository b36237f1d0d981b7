-- Issue 28: no list, search or count query reads every task (bench/query-plans.ts shows the plans).
-- Tables whose names start with "_" are not Prisma models: lib/db reads them with its own SQL.

-- The agent filter matches a served agent or a peer: listTasks walks each of these in createdAt
-- order for a page and merges the two, instead of walking every task for a rare one.
CREATE INDEX "Task_agentSlug_createdAt_idx" ON "Task"("agentSlug", "createdAt");
CREATE INDEX "Task_peerName_createdAt_idx" ON "Task"("peerName", "createdAt");

-- Text search: a trigram index of the two texts the dashboard searches (substring matches, as the
-- LIKE it narrows down). External content: the text stays in "Task" only; the index is kept in step
-- by the triggers below, in the transaction that writes the task. It is keyed by the task's rowid,
-- which only VACUUM renumbers: after a VACUUM, INSERT INTO "_task_search"("_task_search") VALUES('rebuild').
CREATE VIRTUAL TABLE "_task_search" USING fts5("requestText", "resultText", content='Task', tokenize='trigram', detail='none', columnsize=0);
INSERT INTO "_task_search"("_task_search") VALUES ('rebuild');

CREATE TRIGGER "_task_search_insert" AFTER INSERT ON "Task" BEGIN
  INSERT INTO "_task_search"(rowid, "requestText", "resultText") VALUES (NEW.rowid, NEW."requestText", NEW."resultText");
END;
CREATE TRIGGER "_task_search_delete" AFTER DELETE ON "Task" BEGIN
  INSERT INTO "_task_search"("_task_search", rowid, "requestText", "resultText") VALUES ('delete', OLD.rowid, OLD."requestText", OLD."resultText");
END;
CREATE TRIGGER "_task_search_update" AFTER UPDATE OF "requestText", "resultText" ON "Task"
WHEN OLD."requestText" IS NOT NEW."requestText" OR OLD."resultText" IS NOT NEW."resultText" BEGIN
  INSERT INTO "_task_search"("_task_search", rowid, "requestText", "resultText") VALUES ('delete', OLD.rowid, OLD."requestText", OLD."resultText");
  INSERT INTO "_task_search"(rowid, "requestText", "resultText") VALUES (NEW.rowid, NEW."requestText", NEW."resultText");
END;

-- Tallies: tasks per (direction, agent, peer, state, detached), kept by triggers in the
-- transaction that inserts, changes or deletes the task. The dashboard's counts and the metrics
-- gauge add up these few rows (lib/db/task-tallies.ts) instead of counting tasks. "" for no agent/peer.
CREATE TABLE "_task_tally" (
  "direction" TEXT NOT NULL,
  "agent" TEXT NOT NULL,
  "peer" TEXT NOT NULL,
  "state" TEXT NOT NULL,
  "detached" INTEGER NOT NULL,
  "count" INTEGER NOT NULL,
  PRIMARY KEY ("direction", "agent", "peer", "state", "detached")
) WITHOUT ROWID;

INSERT INTO "_task_tally" ("direction", "agent", "peer", "state", "detached", "count")
SELECT "direction", COALESCE("agentSlug", ''), COALESCE("peerName", ''), "state", "detached", COUNT(*) FROM "Task"
GROUP BY "direction", COALESCE("agentSlug", ''), COALESCE("peerName", ''), "state", "detached";

CREATE TRIGGER "_task_tally_insert" AFTER INSERT ON "Task" BEGIN
  INSERT INTO "_task_tally" VALUES (NEW."direction", COALESCE(NEW."agentSlug", ''), COALESCE(NEW."peerName", ''), NEW."state", NEW."detached", 1)
  ON CONFLICT DO UPDATE SET "count" = "count" + 1;
END;
CREATE TRIGGER "_task_tally_delete" AFTER DELETE ON "Task" BEGIN
  INSERT INTO "_task_tally" VALUES (OLD."direction", COALESCE(OLD."agentSlug", ''), COALESCE(OLD."peerName", ''), OLD."state", OLD."detached", -1)
  ON CONFLICT DO UPDATE SET "count" = "count" - 1;
END;
CREATE TRIGGER "_task_tally_update" AFTER UPDATE OF "direction", "agentSlug", "peerName", "state", "detached" ON "Task"
WHEN OLD."direction" IS NOT NEW."direction" OR OLD."agentSlug" IS NOT NEW."agentSlug" OR OLD."peerName" IS NOT NEW."peerName"
  OR OLD."state" IS NOT NEW."state" OR OLD."detached" IS NOT NEW."detached" BEGIN
  INSERT INTO "_task_tally" VALUES (OLD."direction", COALESCE(OLD."agentSlug", ''), COALESCE(OLD."peerName", ''), OLD."state", OLD."detached", -1)
  ON CONFLICT DO UPDATE SET "count" = "count" - 1;
  INSERT INTO "_task_tally" VALUES (NEW."direction", COALESCE(NEW."agentSlug", ''), COALESCE(NEW."peerName", ''), NEW."state", NEW."detached", 1)
  ON CONFLICT DO UPDATE SET "count" = "count" + 1;
END;
