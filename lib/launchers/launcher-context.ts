import { stat } from 'node:fs/promises';
import type { GroupLedger } from './group-ledger';
import type { LauncherLog } from './log';
import type { SessionStore } from './session-store';

/** What every runner needs besides its spec: who it serves, where it runs, where it logs. */
export interface LauncherContext {
  slug: string;
  /** Absolute working directory for the child. */
  cwd: string;
  log: LauncherLog;
  /** Where every launched process group is recorded until it is reaped. */
  ledger: GroupLedger;
  /** Agent session ids for `resume` (process launchers). */
  sessions: SessionStore;
  /**
   * The hub's delegation variables for one turn, given by the caller: a process launcher's child
   * gets them in its environment, an rpc worker in that turn's prompt frame (`delegation`).
   */
  turnEnv: (taskId: string) => Record<string, string>;
}

/**
 * Checked before each spawn: a missing cwd makes spawn() fail with ENOENT, which would read as
 * a missing executable; the directory may also vanish after the config was loaded.
 */
export async function directoryProblem(dir: string): Promise<string | null> {
  try {
    return (await stat(dir)).isDirectory() ? null : `working directory is not a directory: ${dir}`;
  } catch {
    return `working directory not found: ${dir}`;
  }
}
