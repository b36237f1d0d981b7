/**
 * Task counts from the tallies (migration 0019): rows of (direction, agent, peer, state,
 * detached) → count, kept by triggers in the transaction that inserts, changes or deletes a task.
 * A count is then a sum over a few dozen rows, not a read of a million tasks. The same per hour
 * created (migration 0021) answers a count over a time range from its whole hours.
 *
 * On PostgreSQL each connection adds to its own rows (shard = its backend pid), so writers on
 * several instances never wait on one hot row; foldTaskTallies, run by the pruner, moves the
 * rows of other shards into shard 0 so the table stays as small as the keys
 * (Store.foldTaskTallies, postgres/tallies.ts).
 */
import { db, store } from './client';
import type { Direction } from './task-records';
import { toStateCounts, type StateCountRow, type StateCounts } from './state-counts';

export interface TaskTally {
  state: string;
  direction: string;
  count: number;
}

/** The filters a tally can answer: the others (text, owner…) need the tasks themselves. */
export interface TallyFilter {
  direction?: Direction;
  /** A served agent's slug or a peer's name, as the dashboard's agent filter. */
  agentOrPeer?: string;
  /**
   * Only tasks created in these whole hours (hours since 1970-01-01 UTC): `from` inclusive, `to`
   * exclusive or open. Read from the hourly tallies (migration 0021), one row per key and hour.
   */
  hours?: { from: number; to?: number };
}

export const HOUR_MS = 3_600_000;

/** For the metrics gauge: tasks per (state, direction). */
export async function tallyTasksByState(): Promise<TaskTally[]> {
  const rows = await db().$queryRawUnsafe<{ state: string; direction: string; n: unknown }[]>(
    'SELECT "state", "direction", CAST(SUM("count") AS BIGINT) AS "n" FROM "_task_tally" GROUP BY "state", "direction"',
  );
  return rows.map((r) => ({ state: r.state, direction: r.direction, count: Number(r.n) })).filter((t) => t.count > 0);
}

/** Tasks per state (and detached) matching `f`, from the tallies. */
export async function tallyByState(f: TallyFilter): Promise<StateCounts> {
  return toStateCounts(await tallyRows(f));
}

/** Grouped (state, detached, n) rows matching `f`, from the tallies (to add to rows counted elsewhere). */
export async function tallyRows(f: TallyFilter): Promise<StateCountRow[]> {
  const where: string[] = [];
  const args: unknown[] = [];
  const param = (v: unknown) => store().sqlParam(args.push(v));
  if (f.hours) where.push(`"hour" >= ${param(f.hours.from)}`);
  if (f.hours?.to !== undefined) where.push(`"hour" < ${param(f.hours.to)}`);
  if (f.direction) where.push(`"direction" = ${param(f.direction)}`);
  if (f.agentOrPeer) where.push(`("agent" = ${param(f.agentOrPeer)} OR "peer" = ${param(f.agentOrPeer)})`);
  const table = f.hours ? '"_task_tally_hour"' : '"_task_tally"';
  return db().$queryRawUnsafe<StateCountRow[]>(
    `SELECT "state", "detached", CAST(SUM("count") AS BIGINT) AS "n" FROM ${table}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} GROUP BY "state", "detached"`,
    ...args,
  );
}
