/**
 * Launchers: any command-line agent behind A2A (design §5, docs/launchers.md).
 *
 * The config loader validates an agent's `launcher` key with LauncherSpecSchema, then calls
 * createLauncherRunner; both report problems by key, so one bad agent never stops the others.
 * At shutdown the engine calls close() on each runner.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { AgentRunner } from '../engine/agent';
import { defaultLauncherLog, type LauncherLog } from './log';
import { ProcessLauncherRunner } from './process-runner';
import { RpcLauncherRunner } from './rpc/rpc-runner';
import type { LauncherSpec } from './spec';

export { LauncherSpecSchema, LAUNCHER_DEFAULTS, formatLauncherIssues } from './spec';
export type { LauncherSpec, LauncherSpecInput, ProcessLauncherSpec, RpcLauncherSpec } from './spec';
export { WORKER_PROTOCOL } from './rpc/frames';
export type { LauncherLog, LogLevel } from './log';

/** A runner whose close() is always there: it owns processes that must not outlive the hub. */
export type LauncherRunner = AgentRunner & { close(): Promise<void> };

export interface LauncherRunnerOptions {
  /** The served agent's slug: `{agent}` in argv, and the tag on its log lines. */
  slug: string;
  /** Directory a relative `cwd` is resolved against (the config file's directory); also the default cwd. */
  baseDir: string;
  /** Defaults to the project's structured log (lib/log.ts), tagged `launcher: <slug>`. */
  log?: LauncherLog;
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
  const ctx = { slug: opts.slug, cwd, log: opts.log ?? defaultLauncherLog(opts.slug) };
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
