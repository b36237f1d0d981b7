/**
 * The dashboard's text search on SQLite without reading every task (Store.textSearch). What matches is
 * unchanged: a task whose request or result text contains the search text, ASCII case ignored
 * (SQLite's LIKE). The trigram index (`_task_search`, migration 0019) only narrows the tasks
 * the LIKE then decides on: every trigram of the text must be in the task's texts.
 *
 * A frequent text is answered from the newest tasks alone: the LIKE over the newest
 * RECENT_WINDOW tasks that match the other filters fills a page (in order, so it is the same
 * page). A rarer one goes through the index: its matches are few, read by rowid and sorted.
 * A text of one or two characters has no trigram; it keeps the LIKE walk (it matches nearly
 * every task, so the page fills at once). `%` and `_` are matched as themselves (Prisma's
 * `contains` passed them on as wildcards).
 *
 * PostgreSQL needs none of this: trigram GIN indexes serve its ILIKE, and its planner picks
 * between them and the createdAt walk (migrations-postgresql/0019).
 */
import { sqliteTime } from '../task-store';
import type { RawTaskRow } from '../task-store';
import type { TaskListFilter } from '../task-repo';
import { toStateCounts, type StateCounts } from '../state-counts';
import type { Db, TaskTextSearch } from '../store';
import { agentSides, onlyOpenDetached } from '../list-filter';

/** Newest tasks the LIKE reads before the index is asked: at 2.5% density and more they fill a page. */
export const RECENT_WINDOW = 2_000;
/** More trigrams narrow better but cost a doclist each; the LIKE decides anyway. */
const MAX_TRIGRAMS = 12;

/**
 * The FTS5 query for `text`: its distinct trigrams, each quoted, ANDed; null when it has none
 * (shorter than three characters). Evenly spread over the text when there are many.
 */
export function trigramQuery(text: string): string | null {
  const chars = Array.from(text);
  if (chars.length < 3) return null;
  const all = [...new Set(chars.slice(0, -2).map((_, i) => chars.slice(i, i + 3).join('')))];
  const step = Math.max(1, all.length / MAX_TRIGRAMS);
  const picked = all.length <= MAX_TRIGRAMS ? all : Array.from({ length: MAX_TRIGRAMS }, (_, i) => all[Math.floor(i * step)]);
  return picked.map((t) => `"${t.replaceAll('"', '""')}"`).join(' AND ');
}

type Where = { sql: string; args: unknown[] };

const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The list filter as SQLite SQL, every condition listWhere (task-repo.ts) has, plus the cursor. */
function whereSql(f: Omit<TaskListFilter, 'limit'>, withText: boolean): Where {
  const and: string[] = [];
  const args: unknown[] = [];
  const add = (sql: string, ...values: unknown[]) => (and.push(sql), args.push(...values));
  if (f.states?.length) add(`"state" IN (${f.states.map(() => '?').join(', ')})`, ...f.states);
  if (f.direction) add('"direction" = ?', f.direction);
  if (f.agentOrPeer) add('("agentSlug" = ? OR "peerName" = ?)', f.agentOrPeer, f.agentOrPeer);
  if (f.agentSlug) add('"agentSlug" = ?', f.agentSlug);
  if (f.peerName) add('"peerName" = ?', f.peerName);
  if (f.notAgentSlug) add('("agentSlug" IS NULL OR "agentSlug" <> ?)', f.notAgentSlug);
  if (f.owner) add('"owner" = ?', f.owner);
  if (f.contextId) add('"contextId" = ?', f.contextId);
  if (f.detached !== undefined) add('"detached" = ?', f.detached ? 1 : 0);
  if (onlyOpenDetached(f)) add('"endedAt" IS NULL');
  if (f.since) add('"createdAt" >= ?', sqliteTime(f.since));
  if (f.until) add('"createdAt" <= ?', sqliteTime(f.until));
  if (f.cursor) {
    const at = sqliteTime(new Date(f.cursor.createdAt));
    add('("createdAt" < ? OR ("createdAt" = ? AND "id" < ?))', at, at, f.cursor.id);
  }
  if (withText && f.search) add('("requestText" LIKE ? ESCAPE \'\\\' OR "resultText" LIKE ? ESCAPE \'\\\')', escapeLike(f.search), escapeLike(f.search));
  return { sql: and.length ? and.join(' AND ') : '1', args };
}

const NEWEST = 'ORDER BY "createdAt" DESC, "id" DESC';

/** The tasks the index says may contain every trigram, as the outer loop (CROSS JOIN keeps it outer). */
const CANDIDATES = 'SELECT rowid AS "r" FROM "_task_search" WHERE "_task_search" MATCH ?';

/**
 * The matches among the newest RECENT_WINDOW tasks of `side` (one side of the agent filter, or
 * the whole filter), `limit + 1` at most, and whether they are all of the side's matches that
 * can be on the page: a full page, or a window that held every task of the side.
 */
async function recentMatches(db: Db, side: TaskListFilter, oneOfSides: boolean): Promise<{ rows: RawTaskRow[]; settled: boolean }> {
  const others = whereSql(side, false);
  const text = whereSql({ search: side.search }, true);
  const rows = await db.$queryRawUnsafe<RawTaskRow[]>(
    `SELECT * FROM (SELECT * FROM "Task" WHERE ${others.sql} ${NEWEST} LIMIT ${RECENT_WINDOW}) WHERE ${text.sql} ${NEWEST} LIMIT ?`,
    ...others.args,
    ...text.args,
    side.limit + 1,
  );
  if (rows.length > side.limit) return { rows, settled: true };
  // Alone, an unsettled window goes to the trigram index at once; a side asks whether its window
  // held all its tasks (through its own index, at most RECENT_WINDOW entries), so that a side
  // with few tasks does not send the other to the index.
  if (!oneOfSides) return { rows, settled: false };
  const [held] = await db.$queryRawUnsafe<{ n: unknown }[]>(`SELECT COUNT(*) AS "n" FROM (SELECT 1 FROM "Task" WHERE ${others.sql} LIMIT ${RECENT_WINDOW})`, ...others.args);
  return { rows, settled: Number(held.n) < RECENT_WINDOW };
}

/** (createdAt, id) descending, as NEWEST. The driver may hand a time over as a Date or as SQLite's text. */
const timeOf = (value: unknown) => (value instanceof Date ? value.getTime() : Date.parse(String(value)));
const newestFirst = (a: RawTaskRow, b: RawTaskRow) => timeOf(b.createdAt) - timeOf(a.createdAt) || (String(a.id) < String(b.id) ? 1 : String(a.id) > String(b.id) ? -1 : 0);

/**
 * One page of `f` (with `f.search`), newest first; `limit + 1` rows at most. `match`: the
 * trigram query, null for a text shorter than a trigram (then the LIKE walks on). The agent
 * filter's sides each walk their own index for the recent window (list-filter.ts), and the
 * trigram index, when the windows do not settle the page, is asked once for both sides: the
 * candidates are the same, and reading them twice was the agent filter's whole cost at 1M tasks.
 */
async function searchTaskRows(db: Db, f: TaskListFilter, match: string | null): Promise<RawTaskRow[]> {
  const split = agentSides(f);
  const sides = await Promise.all(split.map((side) => recentMatches(db, side, split.length > 1)));
  if (sides.length === 1 && sides[0].settled) return sides[0].rows;
  if (sides.every((side) => side.settled)) {
    const merged = [...new Map(sides.flatMap((side) => side.rows).map((row) => [row.id, row])).values()];
    return merged.sort(newestFirst).slice(0, f.limit + 1);
  }
  const all = whereSql(f, true);
  // The matches are ordered by their keys alone and only the page's rows are read whole: sorting
  // every candidate's whole row (texts, status message) was most of a rare word's time at 1M tasks.
  return db.$queryRawUnsafe<RawTaskRow[]>(
    `SELECT * FROM "Task" WHERE rowid IN (SELECT "t".rowid FROM ${from(match)} WHERE ${all.sql} ${NEWEST.replaceAll('"createdAt"', '"t"."createdAt"').replaceAll('"id"', '"t"."id"')} LIMIT ?) ${NEWEST}`,
    ...(match ? [match] : []),
    ...all.args,
    f.limit + 1,
  );
}

/** The tasks the index names as the outer loop, or (no trigram) every task. */
const from = (match: string | null) => (match ? `(${CANDIDATES}) AS "m" CROSS JOIN "Task" AS "t" ON "t".rowid = "m"."r"` : '"Task" AS "t"');

/** Tasks per state (and detached) matching `f`, its search through the index. */
async function searchStateCounts(db: Db, f: Omit<TaskListFilter, 'limit' | 'cursor'>, match: string | null): Promise<StateCounts> {
  const all = whereSql(f, true);
  const rows = await db.$queryRawUnsafe<{ state: string; detached: unknown; n: unknown }[]>(
    `SELECT "state", "detached", COUNT(*) AS "n" FROM ${from(match)} WHERE ${all.sql} GROUP BY "state", "detached"`,
    ...(match ? [match] : []),
    ...all.args,
  );
  return toStateCounts(rows);
}

/** The SQLite store's text search (Store.textSearch), on its Prisma client. */
export function sqliteTextSearch(db: () => Db): TaskTextSearch {
  return {
    rows: (f) => searchTaskRows(db(), f, trigramQuery(f.search)),
    stateCounts: (f) => searchStateCounts(db(), f, trigramQuery(f.search)),
  };
}
