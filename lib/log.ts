/**
 * Structured logs: one JSON line per event, saying what happened, for whom, and why.
 */
export type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

const LEVEL_KEY = Symbol.for('switchboard.log-level');
type LevelHolder = { [LEVEL_KEY]?: Level };

/**
 * Set by the settings loader when it parses `Settings.logLevel` (lib/config/settings.ts), so the
 * log never reads the environment itself; info until then. Process-wide, like the settings.
 */
export function setLogLevel(level: Level): void {
  (globalThis as LevelHolder)[LEVEL_KEY] = level;
}

function threshold(): number {
  return ORDER[(globalThis as LevelHolder)[LEVEL_KEY] ?? 'info'];
}

function write(level: Level, msg: string, fields: Record<string, unknown>): void {
  if (ORDER[level] < threshold()) return;
  const line = JSON.stringify({ t: new Date().toISOString(), level, msg, ...fields });
  if (level === 'error' || level === 'warn') process.stderr.write(line + '\n');
  else process.stdout.write(line + '\n');
}

export const log = {
  debug: (msg: string, fields: Record<string, unknown> = {}) => write('debug', msg, fields),
  info: (msg: string, fields: Record<string, unknown> = {}) => write('info', msg, fields),
  warn: (msg: string, fields: Record<string, unknown> = {}) => write('warn', msg, fields),
  error: (msg: string, fields: Record<string, unknown> = {}) => write('error', msg, fields),
};

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
