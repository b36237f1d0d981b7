-- PostgreSQL twin of prisma/migrations/0021_task_tally_hours.
-- Issue 28 at 1M tasks: the dashboard's counts over a time range read hourly tallies, not tasks.
-- A week of a million-task month was 230,000 index entries; it is now the tally rows of the
-- week's whole hours plus the tasks of the range's first, partial hour (lib/db/task-tallies.ts).

-- Tasks per (hour created, direction, agent, peer, state, detached), kept by a trigger in the
-- transaction that inserts, changes or deletes the task, as "_task_tally" (0019) is: each
-- connection adds to its own rows ("shard" = its backend pid) so writers never wait on the current
-- hour's hot rows; the pruner folds other shards into shard 0 (postgres/tallies.ts). "hour" is
-- hours since 1970-01-01 UTC (createdAt is a UTC timestamp), the same number on both stores.
CREATE TABLE "_task_tally_hour" (
  "hour" INTEGER NOT NULL,
  "shard" INTEGER NOT NULL,
  "direction" TEXT NOT NULL,
  "agent" TEXT NOT NULL,
  "peer" TEXT NOT NULL,
  "state" TEXT NOT NULL,
  "detached" BOOLEAN NOT NULL,
  "count" BIGINT NOT NULL,
  PRIMARY KEY ("hour", "shard", "direction", "agent", "peer", "state", "detached")
);
-- The fold finds the rows to move without reading every hour.
CREATE INDEX "_task_tally_hour_unfolded_idx" ON "_task_tally_hour"("shard") WHERE "shard" <> 0;

CREATE FUNCTION "_task_hour"(t TIMESTAMP) RETURNS INTEGER LANGUAGE sql IMMUTABLE AS $$
  SELECT floor(extract(epoch FROM t) / 3600)::INTEGER;
$$;

INSERT INTO "_task_tally_hour" ("hour", "shard", "direction", "agent", "peer", "state", "detached", "count")
SELECT "_task_hour"("createdAt"), 0, "direction", COALESCE("agentSlug", ''), COALESCE("peerName", ''), "state", "detached", COUNT(*) FROM "Task"
GROUP BY 1, 3, 4, 5, 6, 7;

CREATE FUNCTION "_task_tally_hour_add"(h INTEGER, d TEXT, a TEXT, p TEXT, s TEXT, det BOOLEAN, n INTEGER) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "_task_tally_hour" VALUES (h, pg_backend_pid(), d, COALESCE(a, ''), COALESCE(p, ''), s, det, n)
  ON CONFLICT ("hour", "shard", "direction", "agent", "peer", "state", "detached") DO UPDATE SET "count" = "_task_tally_hour"."count" + EXCLUDED."count";
$$;

CREATE FUNCTION "_task_tally_hour_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM "_task_tally_hour_add"("_task_hour"(OLD."createdAt"), OLD."direction", OLD."agentSlug", OLD."peerName", OLD."state", OLD."detached", -1); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM "_task_tally_hour_add"("_task_hour"(NEW."createdAt"), NEW."direction", NEW."agentSlug", NEW."peerName", NEW."state", NEW."detached", 1); END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "_task_tally_hour_insert_delete" AFTER INSERT OR DELETE ON "Task" FOR EACH ROW EXECUTE FUNCTION "_task_tally_hour_trigger"();
CREATE TRIGGER "_task_tally_hour_update" AFTER UPDATE OF "createdAt", "direction", "agentSlug", "peerName", "state", "detached" ON "Task" FOR EACH ROW
WHEN (OLD."createdAt" IS DISTINCT FROM NEW."createdAt" OR OLD."direction" IS DISTINCT FROM NEW."direction" OR OLD."agentSlug" IS DISTINCT FROM NEW."agentSlug"
  OR OLD."peerName" IS DISTINCT FROM NEW."peerName" OR OLD."state" IS DISTINCT FROM NEW."state" OR OLD."detached" IS DISTINCT FROM NEW."detached")
EXECUTE FUNCTION "_task_tally_hour_trigger"();
