/**
 * The launcher tables' rows as both stores write them (sqlite/launches.ts, postgres/launches.ts):
 * LaunchedGroup (launched-group-repo.ts) and LauncherSession (launcher-session-repo.ts).
 */
import type { LaunchedGroupRecord } from '../launchers/group-ledger';
import { sqliteTime } from './task-store';

/** The LaunchedGroup table's row is the launchers' record of a group, column for column. */
export type LaunchedGroupRow = LaunchedGroupRecord;

export const LAUNCHED_GROUP_COLUMNS = '"pgid","startTime","bootId","host","hubPid","hubStartTime","agentSlug","kind","killGraceMs"';
export const launchedGroupValues = (r: LaunchedGroupRow) => [r.pgid, r.startTime, r.bootId, r.host, r.hubPid, r.hubStartTime, r.agentSlug, r.kind, r.killGraceMs];
export const launchedGroupKey = (r: LaunchedGroupRow) => [r.pgid, r.startTime, r.bootId];

export interface SessionRowKey {
  agent: string;
  owner: string;
  contextId: string;
}

export type SessionRow = { sessionId: string | null } | undefined;
export const toSession = (row: SessionRow) => (row ? (row.sessionId === null ? {} : { sessionId: row.sessionId }) : undefined);

/** Strictly increasing, so two uses in one millisecond still have an order. */
let lastStamp = 0;
export function sessionStamp(): string {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return sqliteTime(new Date(lastStamp));
}
