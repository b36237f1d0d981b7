/**
 * The one retry pacing: exponential, doubling from `initialMs` up to `maxMs`. Every retry loop
 * (following a peer, notifications, the outbox's record retries, the PostgreSQL listener, the
 * browser's and the command line's stream reconnects) uses it with its own two numbers, which
 * its caller explains. Client-safe.
 */
export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
}

/** The pause before retry number `attempt` (1 is the first retry). */
export function backoffDelay(policy: BackoffPolicy, attempt: number): number {
  return Math.min(policy.maxMs, policy.initialMs * 2 ** Math.max(0, attempt - 1));
}

/** A retry loop's pacing: next() is the pause before the next try; reset() after a success. */
export class Backoff {
  attempts = 0;

  constructor(private readonly policy: BackoffPolicy) {}

  next(): number {
    return backoffDelay(this.policy, ++this.attempts);
  }

  reset(): void {
    this.attempts = 0;
  }
}
