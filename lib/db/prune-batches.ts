/**
 * The one shape of a prune (outbox-pruner.ts, task-pruner.ts): one bounded DELETE after another
 * until a batch comes back short, paced so that pruning takes at most PRUNE_SHARE of the time:
 * after a statement that took d ms the pruner rests d × (1 − share) / share ms. On SQLite a
 * statement runs on the event loop (the writer's connection), so without the rest a backlog of
 * a million rows would hold the loop half the time (measured: echo at 0.52× while 46k tasks were
 * pruned back to back); with it, the writer's group commits and the requests get the rest.
 */
import { store } from './store';
import { sleep } from '../util/abortable';

/** Rows per statement (outbox rows), unless a caller (a test) asks for fewer. */
export const PRUNE_BATCH = 1_000;
/** At most this share of the time goes to pruning while there is a backlog. */
export const PRUNE_SHARE = 0.1;

/** One prune statement for each store: SQLite (`?` parameters) and PostgreSQL (`$n`). */
export interface PruneStatement {
  sqlite: string;
  pg: string;
}

export interface Pace {
  /** The share of the time pruning may take (default PRUNE_SHARE). */
  share?: number;
  /** How the pruner rests between statements (tests record it). */
  rest?: (ms: number) => Promise<unknown>;
}

/** Runs `statement` (its last parameter is the batch size) until it deletes fewer than `batch`; the total deleted. */
export async function deleteInBatches(statement: PruneStatement, values: unknown[], batch = PRUNE_BATCH, pace: Pace = {}): Promise<number> {
  const { share = PRUNE_SHARE, rest = sleep } = pace;
  let total = 0;
  for (;;) {
    const started = performance.now();
    const deleted = await store().deleteBatch(statement, [...values, batch]);
    total += deleted;
    if (deleted < batch) return total;
    const took = performance.now() - started;
    await rest((took * (1 - share)) / share); // the writer and the requests first
  }
}
