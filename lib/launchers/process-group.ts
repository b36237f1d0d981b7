/**
 * A child started as the leader of its own process group and session (`detached: true`), and
 * the reaping that ends the whole tree: SIGTERM to the group, a grace period, SIGKILL, then a
 * check through /proc that no live process of the group (or of its session) is left.
 *
 * The leader is a guardian (guardian.mjs, decision 234) that runs the command in its group and
 * holds a lifeline from this process: when the hub dies, however (SIGKILL included), the
 * lifeline closes and the guardian ends the group, so no launched tree outlives its hub.
 *
 * Limits: a descendant that calls setsid() leaves both the group and the session and escapes,
 * as with any pgid-based reaping; an agent that must be contained against that needs a cgroup
 * (systemd-run --scope) around the launcher command.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { settledWithin, sleep } from '../util/abortable';
import type { LaunchRecorder } from './group-ledger';
import type { LauncherLog } from './log';
import { isLive, readProcTable, type ProcEntry } from './proc-table';
import { spawnErrorReason } from './reasons';

/** How long to poll for the group to empty after SIGKILL before logging survivors. */
export const REAP_VERIFY_MS = 3000;
const POLL_MS = 20;

export interface GroupSpawnOptions {
  cwd: string;
  env: Record<string, string>;
  /** 'pipe' when we write to the child; 'ignore' gives it /dev/null. */
  stdin: 'pipe' | 'ignore';
  /** Records the new group durably, right after the spawn (group-ledger.ts); see `recorded`. */
  record?: LaunchRecorder;
  /** The guardian's grace between SIGTERM and SIGKILL when the hub is gone (default 2 s). */
  killGraceMs?: number;
}

/** The guardian script; the server runs from the checkout (as it finds its migrations). */
export const GUARDIAN_SCRIPT = path.resolve(process.cwd(), 'lib/launchers/guardian.mjs');
/** How long to wait for the guardian's report once it exited (it writes it just before). */
const REPORT_WAIT_MS = 1000;

interface GuardianReport {
  exit?: { code: number | null; signal: NodeJS.Signals | null };
  spawnError?: { code: string | null; message: string };
}

/** The guardian's one report line, or null if none comes (it was killed, or the lifeline broke). */
function readReport(child: ChildProcess): Promise<GuardianReport | null> {
  const lifeline = child.stdio[3] as Readable | null | undefined;
  if (!lifeline) return Promise.resolve(null);
  return new Promise((resolve) => {
    let text = '';
    const done = () => {
      const line = text.split('\n')[0].trim();
      try {
        resolve(line ? (JSON.parse(line) as GuardianReport) : null);
      } catch {
        resolve(null);
      }
    };
    lifeline.on('data', (chunk: Buffer) => {
      if (text.length < 4096) text += chunk.toString('utf8');
      if (text.includes('\n')) done(); // not the end: a grandchild may hold the guardian's end open
    });
    lifeline.once('end', done);
    lifeline.once('close', done);
    lifeline.once('error', () => resolve(null));
  });
}

export type GroupExit =
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null }
  | { kind: 'spawn-error'; reason: string };

export interface GroupStreams {
  stdin: Writable | null;
  stdout: Readable;
  stderr: Readable;
}

export class ProcessGroup {
  /** Settles once: when the leader has exited and been waited for, or spawning failed. */
  readonly exited: Promise<GroupExit>;
  /**
   * Resolves true once the group is recorded (at once for a synchronous ledger or none), false
   * if recording failed (then the group is killed and `exited` is a spawn-error). Hand the
   * child nothing before it resolves true.
   */
  recorded: Promise<boolean> = Promise.resolve(true);
  private exit?: GroupExit;
  private settle!: (exit: GroupExit) => void;
  private terminating?: Promise<void>;
  private release?: () => void;

  private constructor(
    private readonly child: ChildProcess | null,
    private readonly log: LauncherLog,
    argv0: string,
    spawnFailure?: string,
  ) {
    this.exited = new Promise<GroupExit>((resolve) => {
      const settle = (this.settle = (exit: GroupExit) => {
        this.exit ??= exit;
        resolve(this.exit);
      });
      if (!child) return settle({ kind: 'spawn-error', reason: spawnFailure ?? 'could not start' });
      const report = readReport(child);
      child.once('exit', (code, signal) => {
        void settledWithin(report, REPORT_WAIT_MS).then(async (arrived) => {
          const said = arrived ? await report : null;
          if (said?.spawnError) return settle({ kind: 'spawn-error', reason: spawnErrorReason(argv0, Object.assign(new Error(said.spawnError.message), { code: said.spawnError.code ?? undefined })) });
          // The command's own end; without a report (the group was killed), the guardian's.
          settle({ kind: 'exited', ...(said?.exit ?? { code, signal }) });
        });
      });
      // Node reports a failed spawn as 'error' with no pid; later 'error's must not crash us.
      child.on('error', (error) => {
        if (child.pid === undefined) settle({ kind: 'spawn-error', reason: spawnErrorReason(argv0, error) });
        else log('warn', `child ${child.pid}: ${error.message}`);
      });
    });
  }

  /** Never throws: a synchronous spawn failure (E2BIG, bad argument) becomes a spawn-error exit. */
  static spawn(argv: readonly string[], options: GroupSpawnOptions, log: LauncherLog): ProcessGroup {
    try {
      const grace = String(options.killGraceMs ?? 2000);
      const child = spawn(process.execPath, [GUARDIAN_SCRIPT, grace, ...argv], {
        cwd: options.cwd,
        // Next augments ProcessEnv with a required NODE_ENV; a child's env is deliberately minimal.
        env: options.env as NodeJS.ProcessEnv,
        detached: true, // setsid(): the guardian leads a new session and process group (pgid = sid = pid)
        shell: false,
        stdio: [options.stdin, 'pipe', 'pipe', 'pipe'], // fd 3: the guardian's lifeline
        windowsHide: true,
      });
      const group = new ProcessGroup(child, log, argv[0]);
      if (child.pid !== undefined && options.record) group.recordOrKill(child.pid, options.record);
      return group;
    } catch (error) {
      return new ProcessGroup(null, log, argv[0], spawnErrorReason(argv[0], error));
    }
  }

  /** A group we cannot record must not run: a crash would leave it behind unseen. */
  private recordOrKill(pid: number, record: LaunchRecorder): void {
    let release: ReturnType<LaunchRecorder>;
    try {
      release = record(pid);
    } catch (error) {
      killGroup(pid);
      throw new Error(`could not record the launched process group: ${(error as Error).message}`, { cause: error });
    }
    if (!(release instanceof Promise)) {
      this.release = release;
      return;
    }
    this.recorded = release.then(
      (done) => {
        this.release = done;
        return true;
      },
      (error: unknown) => {
        this.settle({ kind: 'spawn-error', reason: `could not record the launched process group: ${(error as Error).message}` });
        killGroup(pid);
        return false;
      },
    );
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get hasExited(): boolean {
    return this.exit !== undefined;
  }

  /** The child's pipes; null when spawning failed synchronously. */
  get streams(): GroupStreams | null {
    const child = this.child;
    if (!child?.stdout || !child.stderr) return null;
    return { stdin: child.stdin, stdout: child.stdout, stderr: child.stderr };
  }

  /**
   * Ends every process of the group and session: TERM, up to `graceMs` for them to go, KILL,
   * then verification. Idempotent; call it on every path, including a normal exit, because a
   * leader's exit says nothing about the grandchildren it left behind.
   */
  terminate(graceMs: number): Promise<void> {
    this.terminating ??= this.reap(graceMs);
    return this.terminating;
  }

  private async reap(graceMs: number): Promise<void> {
    const pgid = this.child?.pid;
    if (pgid === undefined) return;
    await reapGroup(pgid, graceMs, this.log);
    // The leader is waited for by Node; give that a bounded moment so no zombie outlives the turn.
    await settledWithin(this.exited, REAP_VERIFY_MS);
    await this.recorded; // a record still being written is removed once it is
    this.release?.();
  }
}

/**
 * TERM, up to `graceMs`, KILL, then a /proc check of the group and session `pgid` leads; used at
 * every end of a turn or worker, and at start-up for groups a crashed hub left (orphan-reaper.ts).
 */
export async function reapGroup(pgid: number, graceMs: number, log: LauncherLog): Promise<void> {
  if (await groupIsEmpty(pgid)) return;
  await signalTree(pgid, 'SIGTERM');
  await signalTree(pgid, 'SIGCONT'); // A stopped process only sees SIGTERM once continued.
  if (await waitUntilEmpty(pgid, graceMs)) return;
  await signalTree(pgid, 'SIGKILL');
  if (!(await waitUntilEmpty(pgid, REAP_VERIFY_MS))) await reportSurvivors(pgid, log);
}

async function reportSurvivors(pgid: number, log: LauncherLog): Promise<void> {
  const left = (await treeMembers(pgid)) ?? [];
  const list = left.map((p) => `${p.pid}(${p.state})`).join(', ') || 'unknown (no /proc)';
  log('error', `process group ${pgid} still has live processes after SIGKILL: ${list}`);
}

/** Live processes in the group or the session that `pgid` leads; null without /proc. */
export async function treeMembers(pgid: number): Promise<ProcEntry[] | null> {
  const table = await readProcTable();
  if (!table) return null;
  return table.filter((p) => isLive(p) && (p.pgrp === pgid || p.session === pgid));
}

async function groupIsEmpty(pgid: number): Promise<boolean> {
  const members = await treeMembers(pgid);
  if (members) return members.length === 0;
  try {
    process.kill(-pgid, 0);
    return false;
  } catch {
    return true;
  }
}

async function waitUntilEmpty(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await groupIsEmpty(pgid)) return true;
    if (Date.now() >= deadline) return false;
    await sleep(POLL_MS);
  }
}

/**
 * Signals the leader's group and any other group inside its session (a descendant that ran
 * setpgid() but not setsid()). A process group never spans sessions, so these are all ours.
 */
async function signalTree(pgid: number, signal: NodeJS.Signals): Promise<void> {
  const members = await treeMembers(pgid);
  const groups = new Set<number>([pgid, ...(members ?? []).map((p) => p.pgrp)]);
  for (const group of groups) {
    if (group <= 1) continue;
    try {
      process.kill(-group, signal);
    } catch {
      // ESRCH: the group is already gone, which is what we want.
    }
  }
}

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // already gone
  }
}
