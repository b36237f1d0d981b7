/**
 * Launchers: any command-line agent behind A2A (docs/launchers.md).
 *
 * The config loader validates an agent's `launcher` key with LauncherSpecSchema, then calls
 * createLauncherRunner; both report problems by key, so one bad agent never stops the others.
 * At shutdown the app's stop (lib/app/stop-steps.ts) calls close() on each runner. A runner is
 * an AgentRunner (lib/agent-runner.ts, below the launchers and the engine alike).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { AgentRunner } from '../agent-runner';
import { NO_LEDGER, type GroupLedger } from './group-ledger';
import { defaultLauncherLog, type LauncherLog } from './log';
import { MemorySessionStore, type SessionStore } from './session-store';
import { ProcessLauncherRunner } from './process-runner';
import { RpcLauncherRunner } from './rpc/rpc-runner';
import type { LauncherSpec } from './spec';

export { LauncherSpecSchema, LAUNCHER_DEFAULTS, formatLauncherIssues } from './spec';
export type { LauncherSpec, LauncherSpecInput, ProcessLauncherSpec, RpcLauncherSpec } from './spec';
export { WORKER_PROTOCOL } from './rpc/frames';
export type { LauncherLog, LogLevel } from './log';
export type { GroupLedger, LaunchedGroupRecord } from './group-ledger';
export { reapOrphanedGroups, type ReapedGroup } from './orphan-reaper';
export { MAX_SESSIONS, type SessionKey, type SessionStore, type StoredSession } from './session-store';

const NO_TURN_ENV = (): Record<string, string> => ({});

/** A runner whose close() is always there: it owns processes that must not outlive the hub. */
export type LauncherRunner = AgentRunner & { close(): Promise<void> };

export interface LauncherRunnerOptions {
  /** The served agent's slug: `{agent}` in argv, and the tag on its log lines. */
  slug: string;
  /** Directory a relative `cwd` is resolved against (the config file's directory); also the default cwd. */
  baseDir: string;
  /** Defaults to the project's structured log (lib/log.ts), tagged `launcher: <slug>`. */
  log?: LauncherLog;
  /** Where launched process groups are recorded until reaped; none by default (tests, tools). */
  ledger?: GroupLedger;
  /** Where `resume` session ids are kept; in memory by default (lost at restart). */
  sessions?: SessionStore;
  /**
   * Extra environment for a turn's child, by task id: the agent registry passes the hub's
   * delegation variables (lib/auth/delegation-env.ts). Injected, so launchers stay below auth.
   */
  turnEnv?: (taskId: string) => Record<string, string>;
}

/**
 * A spec that parsed but cannot run here. `issues` use zod's paths (relative to the launcher
 * key); the message is `cwd: directory not found: …`, ready for a `launcher: ` or
 * `launcher.` prefix.
 */
export class LauncherConfigError extends Error {
  constructor(readonly issues: Array<{ path: string[]; message: string }>) {
    super(issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    this.name = 'LauncherConfigError';
  }
}

/**
 * Builds the runner for a validated spec. Throws LauncherConfigError when `cwd` is not an
 * existing directory (checked again before every spawn, since it may vanish later).
 */
export function createLauncherRunner(spec: LauncherSpec, opts: LauncherRunnerOptions): LauncherRunner {
  const cwd = path.resolve(opts.baseDir, spec.cwd ?? '.');
  if (!isDirectory(cwd)) {
    throw new LauncherConfigError([{ path: ['cwd'], message: `directory not found: ${cwd}` }]);
  }
  const ctx = {
    slug: opts.slug,
    cwd,
    log: opts.log ?? defaultLauncherLog(opts.slug),
    ledger: opts.ledger ?? NO_LEDGER,
    sessions: opts.sessions ?? new MemorySessionStore(),
    turnEnv: opts.turnEnv ?? NO_TURN_ENV,
  };
  const runner = spec.type === 'process' ? new ProcessLauncherRunner(spec, ctx) : new RpcLauncherRunner(spec, ctx);
  return runner;
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
