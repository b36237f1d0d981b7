/**
 * The LaunchedGroup table: every process group a launcher started, until it is reaped. Written
 * synchronously on the task writer's connection, outside its group commit: the row must be on
 * disk before the child gets its input, and a synchronous statement never interleaves with the
 * writer's transactions (they never span an await). Shaped like lib/launchers' GroupLedger.
 */
import type Database from 'better-sqlite3';
import { sqliteTaskWriter } from './client';
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
    this.insert.run(r.pgid, r.startTime, r.bootId, r.host, r.hubPid, r.hubStartTime, r.agentSlug, r.kind, r.killGraceMs);
  }

  delete(r: LaunchedGroupRow): void {
    this.remove.run(r.pgid, r.startTime, r.bootId);
  }

  list(): LaunchedGroupRow[] {
    return this.all.all() as LaunchedGroupRow[];
  }
}

const repo = () => processSingleton('launched-group-repo', () => new LaunchedGroupRepo(sqliteTaskWriter().conn));

/** The database ledger the served agents' launchers record into. */
export const launchedGroupLedger = {
  add: (r: LaunchedGroupRow) => repo().add(r),
  remove: (r: LaunchedGroupRow) => repo().delete(r),
  list: () => repo().list(),
};
