/**
 * The LaunchedGroup table: every process group a launcher started, until it is reaped, on the
 * store's ledger (sqlite/launches.ts: synchronous, on disk before the child gets its input;
 * postgres/launches.ts: promises, awaited before the child gets anything). Shaped like
 * lib/launchers' GroupLedger.
 */
import { store } from './store';
import type { LaunchedGroupRow } from './launch-rows';

export type { LaunchedGroupRow };

/** The database ledger the served agents' launchers record into. */
export const launchedGroupLedger = {
  add: (r: LaunchedGroupRow): void | Promise<void> => store().launchedGroups.add(r),
  remove: (r: LaunchedGroupRow): void | Promise<void> => store().launchedGroups.remove(r),
  list: (): LaunchedGroupRow[] | Promise<LaunchedGroupRow[]> => store().launchedGroups.list(),
};
