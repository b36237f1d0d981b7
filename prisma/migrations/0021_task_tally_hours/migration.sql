-- Issue 28 at 1M tasks: the dashboard's counts over a time range read hourly tallies, not tasks.
-- A week of a million-task month was 230,000 index entries (143 ms p95); it is now the tally rows
-- of the week's whole hours plus the tasks of the range's first, partial hour (lib/db/task-tallies.ts).

-- Tasks per (hour created, direction, agent, peer, state, detached), kept by triggers in the
-- transaction that inserts, changes or deletes the task, as "_task_tally" (0019) is. "hour" is
-- hours since 1970-01-01 UTC (createdAt's whole hours), the same number on both stores; strftime
-- reads the ISO text lib/db writes and SQLite's own CURRENT_TIMESTAMP alike. "" for no agent/peer.
CREATE TABLE "_task_tally_hour" (
  "hour" INTEGER NOT NULL,
  "direction" TEXT NOT NULL,
  "agent" TEXT NOT NULL,
  "peer" TEXT NOT NULL,
  "state" TEXT NOT NULL,
  "detached" INTEGER NOT NULL,
  "count" INTEGER NOT NULL,
  PRIMARY KEY ("hour", "direction", "agent", "peer", "state", "detached")
) WITHOUT ROWID;

INSERT INTO "_task_tally_hour" ("hour", "direction", "agent", "peer", "state", "detached", "count")
SELECT CAST(strftime('%s', "createdAt") AS INTEGER) / 3600, "direction", COALESCE("agentSlug", ''), COALESCE("peerName", ''), "state", "detached", COUNT(*) FROM "Task"
GROUP BY 1, 2, 3, 4, 5, 6;

CREATE TRIGGER "_task_tally_hour_insert" AFTER INSERT ON "Task" BEGIN
  INSERT INTO "_task_tally_hour" VALUES (CAST(strftime('%s', NEW."createdAt") AS INTEGER) / 3600, NEW."direction", COALESCE(NEW."agentSlug", ''), COALESCE(NEW."peerName", ''), NEW."state", NEW."detached", 1)
  ON CONFLICT DO UPDATE SET "count" = "count" + 1;
END;
CREATE TRIGGER "_task_tally_hour_delete" AFTER DELETE ON "Task" BEGIN
  INSERT INTO "_task_tally_hour" VALUES (CAST(strftime('%s', OLD."createdAt") AS INTEGER) / 3600, OLD."direction", COALESCE(OLD."agentSlug", ''), COALESCE(OLD."peerName", ''), OLD."state", OLD."detached", -1)
  ON CONFLICT DO UPDATE SET "count" = "count" - 1;
END;
CREATE TRIGGER "_task_tally_hour_update" AFTER UPDATE OF "createdAt", "direction", "agentSlug", "peerName", "state", "detached" ON "Task"
WHEN OLD."createdAt" IS NOT NEW."createdAt" OR OLD."direction" IS NOT NEW."direction" OR OLD."agentSlug" IS NOT NEW."agentSlug"
  OR OLD."peerName" IS NOT NEW."peerName" OR OLD."state" IS NOT NEW."state" OR OLD."detached" IS NOT NEW."detached" BEGIN
  INSERT INTO "_task_tally_hour" VALUES (CAST(strftime('%s', OLD."createdAt") AS INTEGER) / 3600, OLD."direction", COALESCE(OLD."agentSlug", ''), COALESCE(OLD."peerName", ''), OLD."state", OLD."detached", -1)
  ON CONFLICT DO UPDATE SET "count" = "count" - 1;
  INSERT INTO "_task_tally_hour" VALUES (CAST(strftime('%s', NEW."createdAt") AS INTEGER) / 3600, NEW."direction", COALESCE(NEW."agentSlug", ''), COALESCE(NEW."peerName", ''), NEW."state", NEW."detached", 1)
  ON CONFLICT DO UPDATE SET "count" = "count" + 1;
END;
