import { log } from '../log';

/**
 * Stops start-up with a message naming what to fix (bad configuration, a port in use). The
 * process exits: a half-started hub would serve requests it cannot answer.
 */
export function refuseToStart(message: string): never {
  log.error('refusing to start', { reason: message });
  process.stderr.write(`\nSwitchboard cannot start:\n${message}\n\n`);
  process.exit(1);
}
