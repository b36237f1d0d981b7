/** Printing for humans or, with --json, one JSON document on stdout for scripts. */
import { CliError } from './api';
import { EXIT, type ExitCode } from './exit-codes';
import { terminalLine } from '../util/terminal-text';

export interface CommonOptions {
  json?: boolean;
  url?: string;
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Cells are neutralised (terminal-text.ts): they may hold what an A2A caller wrote. */
export function printTable(cells: string[][]): void {
  if (!cells.length) return;
  const rows = cells.map((row) => row.map((cell) => terminalLine(cell)));
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  for (const row of rows) process.stdout.write(`${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ')}\n`);
}

/** A line for humans on stderr; it may quote a server's error detail, so it is neutralised. */
export function note(text: string): void {
  process.stderr.write(`${terminalLine(text)}\n`);
}

/** Reports a failure the way the command was asked to speak, and returns its exit code. */
export function reportError(err: unknown, json: boolean): ExitCode {
  const cliError = err instanceof CliError ? err : new CliError(err instanceof Error ? err.message : String(err), EXIT.error);
  if (json) printJson({ error: { code: cliError.code, message: cliError.message }, exitCode: cliError.exitCode });
  else note(`switchboard: ${cliError.message}`);
  return cliError.exitCode;
}

export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
