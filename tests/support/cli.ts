/**
 * Runs the real `switchboard` binary (bin/switchboard.mjs) as a child process, the way an
 * operator's shell would, collecting its output and exit code.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const CLI_BIN = path.resolve(import.meta.dirname, '../../bin/switchboard.mjs');

export interface CliRun {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves to the exit code (a signal death counts as 128 + its number). */
  exited: Promise<number>;
}

export function startCli(args: string[], env: Record<string, string | undefined> = {}): CliRun {
  const child = spawn(process.execPath, [CLI_BIN, ...args], {
    env: { ...process.env, SWITCHBOARD_URL: undefined, SWITCHBOARD_TOKEN: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number>((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : 128))));
  return { child, stdout: () => out, stderr: () => err, exited };
}

export async function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const run = startCli(args, env);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** The task id the CLI names in its first progress line ("following task <id>"). */
export function followedTaskId(stderr: string): string | null {
  return /following task (\S+)/.exec(stderr)?.[1] ?? null;
}
