/**
 * Start-up reaping of process groups that a crashed hub left running (group-ledger.ts). Runs
 * before interrupted tasks are recovered, so a task reads FAILED `interrupted: restart` only once
 * nothing of its run is left. A group is ours to end only if it is provably the one recorded:
 * same machine and boot, its hub is gone, and its leader has the recorded start time (or, with
 * the leader gone, its members started after it); anything else is left alone.
 */
import type { GroupLedger, LaunchedGroupRecord } from './group-ledger';
import { hubIdentity } from './group-ledger';
import type { LauncherLog } from './log';
import { readProcEntrySync, type ProcEntry } from './proc-table';
import { reapGroup, treeMembers } from './process-group';

export interface ReapedGroup {
  record: LaunchedGroupRecord;
  /** The live members found before reaping. */
  pids: number[];
}

export async function reapOrphanedGroups(ledger: GroupLedger, log: LauncherLog): Promise<ReapedGroup[]> {
  const me = hubIdentity();
  if (!me) return [];
  const ours = (await ledger.list()).filter((record) => record.host === me.host); // not another machine's hub sharing the database
  for (const record of ours) if (record.bootId !== me.bootId) await ledger.remove(record); // the machine rebooted since: nothing of it survived
  const orphans = ours.filter((record) => record.bootId === me.bootId && !(isSameProcess(record.hubPid, record.hubStartTime) && record.hubPid !== me.hubPid)); // its hub is gone
  // In parallel: each may take its grace period and the /proc check, and start-up waits for all.
  const reaped = await Promise.all(orphans.map((record) => reapOne(record, log)));
  for (const record of orphans) await ledger.remove(record);
  return reaped.filter((r): r is ReapedGroup => r !== null);
}

async function reapOne(record: LaunchedGroupRecord, log: LauncherLog): Promise<ReapedGroup | null> {
  const members = await recordedMembers(record);
  if (members.length === 0) return null;
  await reapGroup(record.pgid, record.killGraceMs, log);
  const pids = members.map((m) => m.pid);
  log('warn', `reaped process group ${record.pgid} (${record.kind} launcher of agent "${record.agentSlug}") left by a hub that stopped without ending it: pids ${pids.join(', ')}`);
  return { record, pids };
}

function isSameProcess(pid: number, startTime: string): boolean {
  const entry = readProcEntrySync(pid);
  return entry !== null && entry.state !== 'Z' && entry.startTime === startTime;
}

/** The live processes of the recorded group, or none if the pgid now belongs to someone else. */
async function recordedMembers(record: LaunchedGroupRecord): Promise<ProcEntry[]> {
  const leader = readProcEntrySync(record.pgid);
  if (leader && leader.startTime !== record.startTime) return []; // pid reused: our group was gone by then
  const members = (await treeMembers(record.pgid)) ?? [];
  const started = BigInt(record.startTime || '0');
  return members.filter((m) => m.startTime !== '' && BigInt(m.startTime) >= started);
}
