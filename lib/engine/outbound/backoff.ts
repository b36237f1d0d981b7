import type { BackoffPolicy } from '../../util/backoff';

/**
 * Retry pacing while following a peer: from 0.5 s, doubling, capped at 10 s. These are pauses
 * between attempts, not timeouts: how long we keep trying is SWITCHBOARD_FOLLOW_LIMIT.
 */
export const FOLLOW_BACKOFF: BackoffPolicy = { initialMs: 500, maxMs: 10_000 };

/** Log an error on the 1st, 2nd, 4th, 8th... repetition, or when it changes: bounded noise. */
export function worthRecording(attempt: number, message: string, previous: string | undefined): boolean {
  return message !== previous || (attempt & (attempt - 1)) === 0;
}
