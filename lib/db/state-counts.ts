/** Task counts per state, as the list's filter chips show them (from the tallies or the tasks). */

/** Tasks per state, and how many of them are detached. */
export type StateCounts = Record<string, { total: number; detached: number }>;

/** A grouped count: SQLite's detached is 0/1, PostgreSQL's a boolean; n a number or a bigint. */
export type StateCountRow = { state: string; detached: unknown; n: unknown };

/** Grouped rows → StateCounts; rows of the same state and detached flag add up. */
export function toStateCounts(rows: StateCountRow[]): StateCounts {
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
