/**
 * Task counts from the tallies (migration 0019): rows of (direction, agent, peer, state,
 * detached) → count, kept by triggers in the transaction that inserts, changes or deletes a task.
 * A count is then a sum over a few dozen rows, not a read of a million tasks (issue 28).
 *
 * On PostgreSQL each connection adds to its own rows (shard = its backend pid), so writers on
 * several instances never wait on one hot row; foldTaskTallies, run by the pruner, moves the
 * rows of other shards into shard 0 so the table stays as small as the keys.
 */
import { currentStore, db, pgStore } from './client';
import type { Direction } from './task-records';

export interface TaskTally {
  state: string;
  direction: string;
  count: number;
}

/** Tasks per state, and how many of them are detached. */
export type StateCounts = Record<string, { total: number; detached: number }>;

/** The filters a tally can answer: the others (time, text, owner…) need the tasks themselves. */
export interface TallyFilter {
  direction?: Direction;
  /** A served agent's slug or a peer's name, as the dashboard's agent filter. */
  agentOrPeer?: string;
}

const placeholder = (n: number) => (currentStore() === 'postgresql' ? `$${n}` : '?');

/** For the metrics gauge: tasks per (state, direction). */
export async function tallyTasksByState(): Promise<TaskTally[]> {
  const rows = await db().$queryRawUnsafe<{ state: string; direction: string; n: unknown }[]>(
    'SELECT "state", "direction", CAST(SUM("count") AS BIGINT) AS "n" FROM "_task_tally" GROUP BY "state", "direction"',
  );
  return rows.map((r) => ({ state: r.state, direction: r.direction, count: Number(r.n) })).filter((t) => t.count > 0);
}

/** Tasks per state (and detached) matching `f`, from the tallies. */
export async function tallyByState(f: TallyFilter): Promise<StateCounts> {
  const where: string[] = [];
  const args: unknown[] = [];
  if (f.direction) where.push(`"direction" = ${placeholder(args.push(f.direction))}`);
  if (f.agentOrPeer) where.push(`("agent" = ${placeholder(args.push(f.agentOrPeer))} OR "peer" = ${placeholder(args.push(f.agentOrPeer))})`);
  const rows = await db().$queryRawUnsafe<{ state: string; detached: unknown; n: unknown }[]>(
    `SELECT "state", "detached", CAST(SUM("count") AS BIGINT) AS "n" FROM "_task_tally"${where.length ? ` WHERE ${where.join(' AND ')}` : ''} GROUP BY "state", "detached"`,
    ...args,
  );
  return toStateCounts(rows);
}

/** Grouped (state, detached, n) rows → StateCounts; SQLite's detached is 0/1, PostgreSQL's a boolean. */
export function toStateCounts(rows: { state: string; detached: unknown; n: unknown }[]): StateCounts {
  const counts: StateCounts = {};
  for (const r of rows) {
    const n = Number(r.n);
    if (!n) continue;
    const c = (counts[r.state] ??= { total: 0, detached: 0 });
    c.total += n;
    if (r.detached === true || Number(r.detached) === 1) c.detached += n;
  }
  return counts;
}

const FOLD_LOCK = 0x7a11; // pg_advisory_xact_lock key: one fold at a time across instances

/**
 * PostgreSQL: moves the per-connection rows into shard 0. Rows a writer holds right now are
 * skipped (SKIP LOCKED) and folded next time, so a fold never waits on a writer; shard 0 is only
 * written here, one instance at a time. SQLite has one writer and no shards: nothing to do.
 */
export async function foldTaskTallies(): Promise<void> {
  if (currentStore() !== 'postgresql') return;
  const client = await pgStore().pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [FOLD_LOCK]);
    await client.query(`WITH "moved" AS (
  DELETE FROM "_task_tally" WHERE ctid = ANY(ARRAY(SELECT ctid FROM "_task_tally" WHERE "shard" <> 0 FOR UPDATE SKIP LOCKED)) RETURNING *)
INSERT INTO "_task_tally" SELECT 0, "direction", "agent", "peer", "state", "detached", SUM("count") FROM "moved"
GROUP BY "direction", "agent", "peer", "state", "detached"
ON CONFLICT ("shard", "direction", "agent", "peer", "state", "detached") DO UPDATE SET "count" = "_task_tally"."count" + EXCLUDED."count"`);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
