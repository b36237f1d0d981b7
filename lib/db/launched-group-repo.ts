/**
 * The LaunchedGroup table: every process group a launcher started, until it is reaped. On
 * SQLite written synchronously on the task writer's connection, outside its group commit: the
 * row must be on disk before the child gets its input, and a synchronous statement never
 * interleaves with the writer's transactions (they never span an await). On PostgreSQL the same
 * statements on the pool, as promises; the launcher hands the child nothing until the row is
 * committed (ProcessGroup.recorded). Shaped like lib/launchers' GroupLedger.
 */
import type Database from 'better-sqlite3';
import { currentStore, pgQuery, sqliteTaskWriter } from './client';
import { processSingleton } from '../process-singleton';

export interface LaunchedGroupRow {
  pgid: number;
  startTime: string;
  bootId: string;
  host: string;
  hubPid: number;
  hubStartTime: string;
  agentSlug: string;
  kind: 'process' | 'rpc';
  killGraceMs: number;
}

const COLUMNS = '"pgid","startTime","bootId","host","hubPid","hubStartTime","agentSlug","kind","killGraceMs"';
const valuesOf = (r: LaunchedGroupRow) => [r.pgid, r.startTime, r.bootId, r.host, r.hubPid, r.hubStartTime, r.agentSlug, r.kind, r.killGraceMs];
const keyOf = (r: LaunchedGroupRow) => [r.pgid, r.startTime, r.bootId];

class LaunchedGroupRepo {
  private readonly insert: Database.Statement;
  private readonly remove: Database.Statement;
  private readonly all: Database.Statement;

  constructor(conn: Database.Database) {
    this.insert = conn.prepare(`INSERT OR REPLACE INTO "LaunchedGroup" (${COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?)`);
    this.remove = conn.prepare('DELETE FROM "LaunchedGroup" WHERE "pgid" = ? AND "startTime" = ? AND "bootId" = ?');
    this.all = conn.prepare(`SELECT ${COLUMNS} FROM "LaunchedGroup" ORDER BY "createdAt"`);
  }

  add(r: LaunchedGroupRow): void {
    this.insert.run(...valuesOf(r));
  }

  delete(r: LaunchedGroupRow): void {
    this.remove.run(...keyOf(r));
  }

  list(): LaunchedGroupRow[] {
    return this.all.all() as LaunchedGroupRow[];
  }
}

const PG = {
  insert: `INSERT INTO "LaunchedGroup" (${COLUMNS},"createdAt") VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,CURRENT_TIMESTAMP)
    ON CONFLICT ("pgid","startTime","bootId") DO UPDATE SET "host" = EXCLUDED."host", "hubPid" = EXCLUDED."hubPid",
      "hubStartTime" = EXCLUDED."hubStartTime", "agentSlug" = EXCLUDED."agentSlug", "kind" = EXCLUDED."kind",
      "killGraceMs" = EXCLUDED."killGraceMs", "createdAt" = EXCLUDED."createdAt"`,
  remove: 'DELETE FROM "LaunchedGroup" WHERE "pgid" = $1 AND "startTime" = $2 AND "bootId" = $3',
  all: `SELECT ${COLUMNS} FROM "LaunchedGroup" ORDER BY "createdAt"`,
};

const repo = () => processSingleton('launched-group-repo', () => new LaunchedGroupRepo(sqliteTaskWriter().conn));
const onPg = () => currentStore() === 'postgresql';

/** The database ledger the served agents' launchers record into. */
export const launchedGroupLedger = {
  add: (r: LaunchedGroupRow): void | Promise<void> => (onPg() ? pgQuery(PG.insert, valuesOf(r)).then(() => undefined) : repo().add(r)),
  remove: (r: LaunchedGroupRow): void | Promise<void> => (onPg() ? pgQuery(PG.remove, keyOf(r)).then(() => undefined) : repo().delete(r)),
  list: (): LaunchedGroupRow[] | Promise<LaunchedGroupRow[]> => (onPg() ? pgQuery<LaunchedGroupRow>(PG.all).then((r) => r.rows) : repo().list()),
};
