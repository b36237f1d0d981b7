/** The task tallies' per-connection rows (task-tallies.ts) folded into one row per key. */
import type pg from 'pg';

const FOLD_LOCK = 0x7a11; // pg_advisory_xact_lock key: one fold at a time across instances

/**
 * PostgreSQL: moves the per-connection rows into shard 0. Rows a writer holds right now are
 * skipped (SKIP LOCKED) and folded next time, so a fold never waits on a writer; shard 0 is only
 * written here, one instance at a time.
 */
export async function foldTaskTallies(pool: () => Promise<pg.Pool>, emptyRows: number): Promise<void> {
  const client = await (await pool()).connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [FOLD_LOCK]);
    await client.query(`WITH "moved" AS (
  DELETE FROM "_task_tally" WHERE ctid = ANY(ARRAY(SELECT ctid FROM "_task_tally" WHERE "shard" <> 0 FOR UPDATE SKIP LOCKED)) RETURNING *)
INSERT INTO "_task_tally" SELECT 0, "direction", "agent", "peer", "state", "detached", SUM("count") FROM "moved"
GROUP BY "direction", "agent", "peer", "state", "detached"
ON CONFLICT ("shard", "direction", "agent", "peer", "state", "detached") DO UPDATE SET "count" = "_task_tally"."count" + EXCLUDED."count"`);
    // The hourly tallies (migration 0021) the same way; their unfolded rows come from a partial index.
    await client.query(`WITH "moved" AS (
  DELETE FROM "_task_tally_hour" WHERE ctid = ANY(ARRAY(SELECT ctid FROM "_task_tally_hour" WHERE "shard" <> 0 FOR UPDATE SKIP LOCKED)) RETURNING *)
INSERT INTO "_task_tally_hour" SELECT "hour", 0, "direction", "agent", "peer", "state", "detached", SUM("count") FROM "moved"
GROUP BY "hour", "direction", "agent", "peer", "state", "detached"
ON CONFLICT ("hour", "shard", "direction", "agent", "peer", "state", "detached") DO UPDATE SET "count" = "_task_tally_hour"."count" + EXCLUDED."count"`);
    // Folded rows at zero count nothing: a batch of them goes (only this fold writes shard 0).
    await client.query(`DELETE FROM "_task_tally_hour" WHERE ctid = ANY(ARRAY(
  SELECT ctid FROM "_task_tally_hour" WHERE "shard" = 0 AND "count" = 0 LIMIT $1))`, [emptyRows]);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
