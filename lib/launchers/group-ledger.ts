/**
 * The durable list of launched process groups (docs/launchers.md, "No process outlives a
 * crashed hub"). Each group is recorded synchronously right after its spawn, before its turn is
 * handed anything, and removed once it is reaped; a hub that dies leaves its rows behind, and
 * the next start reaps whatever of them is still alive (orphan-reaper.ts).
 *
 * A row names its group by pgid plus the leader's start time from /proc, so a pid reused later
 * by an unrelated process is never mistaken for ours; and by the hub (pid and start time) that
 * launched it, so a second hub sharing the database never touches a live hub's children.
 */
import os from 'node:os';
import type { LauncherLog } from './log';
import { readBootId, readProcEntrySync } from './proc-table';
import type { MaybeAsync } from '../util/maybe-async';

/** One recorded group, whatever the ledger behind it (lib/db stores it as a LaunchedGroup row). */
export interface LaunchedGroupRecord {
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
export type LaunchKind = LaunchedGroupRecord['kind'];

/**
 * Where records live. add() must be durable when it returns (or its promise resolves), and throw
 * (reject) if it cannot be. SQLite's ledger is synchronous; PostgreSQL's returns promises.
 */
export interface GroupLedger {
  add(record: LaunchedGroupRecord): MaybeAsync<void>;
  remove(record: LaunchedGroupRecord): MaybeAsync<void>;
  list(): MaybeAsync<LaunchedGroupRecord[]>;
}

/** For tests and tools that run launchers without a database: nothing is recorded. */
export const NO_LEDGER: GroupLedger = { add() {}, remove() {}, list: () => [] };

export interface HubIdentity {
  host: string;
  bootId: string;
  hubPid: number;
  hubStartTime: string;
}

let identity: HubIdentity | null | undefined;

/** This hub process, as records name it; null where there is no /proc (then nothing is recorded). */
export function hubIdentity(): HubIdentity | null {
  if (identity !== undefined) return identity;
  const self = readProcEntrySync('self');
  const bootId = readBootId();
  identity = self && bootId ? { host: os.hostname(), bootId, hubPid: process.pid, hubStartTime: self.startTime } : null;
  return identity;
}

/**
 * Called with a new leader's pid right after spawn; returns (or resolves to) the release to call
 * once it is reaped. A promise while an asynchronous ledger records: nothing may be handed to
 * the child before it resolves (ProcessGroup.recorded).
 */
export type LaunchRecorder = (pid: number) => MaybeAsync<() => void>;

export function launchRecorder(ledger: GroupLedger, what: { agentSlug: string; kind: LaunchKind; killGraceMs: number }, log: LauncherLog): LaunchRecorder {
  return (pid) => {
    const hub = hubIdentity();
    const leader = readProcEntrySync(pid);
    if (!hub || !leader) return () => {};
    const record: LaunchedGroupRecord = { pgid: pid, startTime: leader.startTime, ...hub, ...what };
    const notRemoved = (error: unknown) => log('warn', `could not remove the record of reaped process group ${pid}: ${(error as Error).message}`);
    const release = () => {
      try {
        const removed = ledger.remove(record);
        if (removed instanceof Promise) removed.catch(notRemoved);
      } catch (error) {
        notRemoved(error);
      }
    };
    const added = ledger.add(record); // throws (or rejects): the caller kills the group and fails the turn
    return added instanceof Promise ? added.then(() => release) : release;
  };
}
