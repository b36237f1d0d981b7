/** Where launchers report what no turn outcome can carry (a group that would not die, a worker evicted while idle). */
import { log } from '../log';

export type LogLevel = 'info' | 'warn' | 'error';
export type LauncherLog = (level: LogLevel, message: string) => void;

/** The project's structured log, tagged with the agent's slug. */
export function defaultLauncherLog(slug: string): LauncherLog {
  return (level, message) => log[level](message, { launcher: slug });
}
