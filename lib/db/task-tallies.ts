/**
 * Task counts from the tallies (migration 0019): rows of (direction, agent, peer, state,
 * detached) → count, kept by triggers in the transaction that inserts, changes or deletes a task.
 * A count is then a sum over a few dozen rows, not a read of a million tasks.
 *
 * On PostgreSQL each connection adds to its own rows (shard = its backend pid), so writers on
 * several instances never wait on one hot row; foldTaskTallies, run by the pruner, moves the
 * rows of other shards into shard 0 so the table stays as small as the keys
 * (Store.foldTaskTallies, postgres/tallies.ts).
 */
import { db, store } from './client';
import type { Direction } from './task-records';
import { toStateCounts, type StateCounts } from './state-counts';

export interface TaskTally {
  state: string;
  direction: string;
  count: number;
}

/** The filters a tally can answer: the others (time, text, owner…) need the tasks themselves. */
export interface TallyFilter {
  direction?: Direction;
  /** A served agent's slug or a peer's name, as the dashboard's agent filter. */
  agentOrPeer?: string;
}

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
  if (f.direction) where.push(`"direction" = ${store().sqlParam(args.push(f.direction))}`);
  if (f.agentOrPeer) where.push(`("agent" = ${store().sqlParam(args.push(f.agentOrPeer))} OR "peer" = ${store().sqlParam(args.push(f.agentOrPeer))})`);
  const rows = await db().$queryRawUnsafe<{ state: string; detached: unknown; n: unknown }[]>(
    `SELECT "state", "detached", CAST(SUM("count") AS BIGINT) AS "n" FROM "_task_tally"${where.length ? ` WHERE ${where.join(' AND ')}` : ''} GROUP BY "state", "detached"`,
    ...args,
  );
  return toStateCounts(rows);
}
