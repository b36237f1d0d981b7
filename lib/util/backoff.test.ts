import { describe, expect, it } from 'vitest';
import { Backoff, backoffDelay } from './backoff';

describe('backoff', () => {
  it('doubles from the first pause up to the cap', () => {
    const policy = { initialMs: 250, maxMs: 4_000 };
    expect([1, 2, 3, 4, 5, 6, 60].map((n) => backoffDelay(policy, n))).toEqual([250, 500, 1_000, 2_000, 4_000, 4_000, 4_000]);
  });

  it('a Backoff counts its attempts and starts over after reset', () => {
    const b = new Backoff({ initialMs: 500, maxMs: 10_000 });
    expect([b.next(), b.next(), b.next()]).toEqual([500, 1_000, 2_000]);
    expect(b.attempts).toBe(3);
    b.reset();
    expect(b.next()).toBe(500);
  });
});
