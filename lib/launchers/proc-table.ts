/**
 * Reads the process table from /proc (Linux) to find the members of a process group or
 * session. Signals alone cannot tell us whether a group is really gone: a zombie still answers
 * kill(-pgid, 0), and a leader's death says nothing about its descendants.
 */
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

export interface ProcEntry {
  pid: number;
  /** One letter: R, S, D, Z (zombie), T (stopped), X (dead), … */
  state: string;
  pgrp: number;
  session: number;
  /** Field 22, clock ticks after boot: with the pid, it names one process for the boot's lifetime. */
  startTime: string;
}

/**
 * Parses /proc/<pid>/stat. The command name (field 2) is in parentheses and may itself contain
 * spaces and parentheses, so the fixed fields are read after the last ')'.
 */
export function parseProcStat(text: string): ProcEntry | null {
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  const pid = Number.parseInt(text, 10);
  // After ") ": state(3) ppid pgrp session … starttime(22)
  const fields = text.slice(close + 2).split(' ');
  const [state, _ppid, pgrp, session] = fields;
  if (!Number.isInteger(pid) || state === undefined) return null;
  return { pid, state, pgrp: Number(pgrp), session: Number(session), startTime: fields[19] ?? '' };
}

/** One process's entry, read synchronously (right after a spawn, before anything else runs); null if gone. */
export function readProcEntrySync(pid: number | 'self'): ProcEntry | null {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** This boot of the machine (Linux), or null: start times only compare within one boot. */
export function readBootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** Every process we can see, or null where there is no /proc (then callers fall back to kill(…, 0)). */
export async function readProcTable(): Promise<ProcEntry[] | null> {
  let names: string[];
  try {
    names = await readdir('/proc');
  } catch {
    return null;
  }
  if (!names.includes('self')) return null; // A /proc directory that is not procfs.
  const entries = await Promise.all(names.filter((name) => /^\d+$/.test(name)).map(readEntry));
  return entries.filter((e): e is ProcEntry => e !== null);
}

async function readEntry(pid: string): Promise<ProcEntry | null> {
  try {
    return parseProcStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null; // The process exited between readdir and readFile.
  }
}

export function isLive(entry: ProcEntry): boolean {
  return entry.state !== 'Z' && entry.state !== 'X';
}
