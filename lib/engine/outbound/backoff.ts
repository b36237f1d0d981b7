/**
 * Retry pacing while following a peer: exponential from 0.5 s, doubling, capped at 10 s. These
 * are pauses between attempts, not timeouts: how long we keep trying is SWITCHBOARD_FOLLOW_LIMIT.
 */
export const BACKOFF_INITIAL_MS = 500;
export const BACKOFF_MAX_MS = 10_000;

export class Backoff {
  private delay = BACKOFF_INITIAL_MS;
  attempts = 0;

  /** The pause before the next attempt; each call doubles the following one. */
  next(): number {
    const current = this.delay;
    this.delay = Math.min(BACKOFF_MAX_MS, this.delay * 2);
    this.attempts++;
    return current;
  }

  reset(): void {
    this.delay = BACKOFF_INITIAL_MS;
    this.attempts = 0;
  }
}

/** Log an error on the 1st, 2nd, 4th, 8th... repetition, or when it changes: bounded noise. */
export function worthRecording(attempt: number, message: string, previous: string | undefined): boolean {
  return message !== previous || (attempt & (attempt - 1)) === 0;
}
