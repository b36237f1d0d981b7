/**
 * SIGTERM / SIGINT: the app's stop (drain, end the remaining tasks, stop the launched children),
 * then exit. A process group's SIGTERM reaches the server twice: directly, and forwarded by the
 * launcher above it (scripts/start.mjs), so a second signal within SAME_STOP_MS is that same
 * request. A later one (an impatient Ctrl-C, a manager's second try) cuts the drain short but
 * never skips the ending: Node's default action for it would exit at once and leave the launched
 * children running. So the handlers stay installed (`on`, not `once`).
 */
import { errorMessage, log } from '../log';

const SAME_STOP_MS = 1_000;

export function exitOnSignals(stop: (cutShort: AbortSignal) => Promise<void>): void {
  let stoppingSince: number | null = null;
  const hurry = new AbortController();
  const onSignal = (signal: string) => {
    if (stoppingSince !== null) {
      if (Date.now() - stoppingSince < SAME_STOP_MS) {
        log.info('shutdown signal repeated at once (a process group\'s, forwarded): the drain goes on', { signal });
        return;
      }
      if (!hurry.signal.aborted) log.warn('second shutdown signal: cutting the drain short; running tasks and their children are ended now', { signal });
      hurry.abort();
      return;
    }
    stoppingSince = Date.now();
    log.info('shutdown requested', { signal });
    void stop(hurry.signal)
      .catch((err) => log.error('shutdown failed', { error: errorMessage(err) }))
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
}
