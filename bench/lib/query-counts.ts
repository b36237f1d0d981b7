/** A Switchboard's database work counted since its start (SWITCHBOARD_QUERY_LOG=1, lib/db/query-counter.ts). */
import type { QueryCounts } from '../../lib/db/query-counter';

export type { QueryCounts };

export const COUNTED: (keyof QueryCounts)[] = ['prisma', 'reads', 'writes', 'commits', 'sqlite'];

export async function queryCounts(url: string): Promise<QueryCounts> {
  const res = await fetch(`${url}/api/debug/queries`);
  if (!res.ok) throw new Error(`GET /api/debug/queries: HTTP ${res.status} (is SWITCHBOARD_QUERY_LOG=1 honoured?)`);
  return (await res.json()) as QueryCounts;
}

/** What was counted between `a` and `b`, divided by `per` (e.g. per send). */
export function countsBetween(a: QueryCounts, b: QueryCounts, per = 1): QueryCounts {
  return Object.fromEntries(COUNTED.map((k) => [k, Math.round(((b[k] - a[k]) / per) * 100) / 100])) as unknown as QueryCounts;
}
