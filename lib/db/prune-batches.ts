/**
 * The one shape of a prune (outbox-pruner.ts, task-pruner.ts): one bounded DELETE after another
 * until a batch comes back short, with the event loop free between statements, so the writer's
 * group commits and the requests go in between batches instead of waiting for the whole prune.
 */
import { currentStore, pgQuery, sqliteTaskWriter } from './client';

/** Rows per statement, unless a caller (a test) asks for fewer. */
export const PRUNE_BATCH = 1_000;

/** One prune statement for each store: SQLite (`?` parameters) and PostgreSQL (`$n`). */
export interface PruneStatement {
  sqlite: string;
  pg: string;
}

async function deleteOnce(statement: PruneStatement, values: unknown[]): Promise<number> {
  if (currentStore() === 'postgresql') return (await pgQuery(statement.pg, values)).rowCount ?? 0;
  return sqliteTaskWriter().conn.prepare(statement.sqlite).run(...values).changes;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs `statement` (its last parameter is the batch size) until it deletes fewer than `batch`; the total deleted. */
export async function deleteInBatches(statement: PruneStatement, values: unknown[], batch = PRUNE_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteOnce(statement, [...values, batch]);
    total += deleted;
    if (deleted < batch) return total;
    await nextTurn(); // let the writer and the requests in between batches
  }
}
