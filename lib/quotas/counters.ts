/**
 * The per-caller counters behind the rate and stored-bytes quotas: fixed windows kept by
 * rate-limiter-flexible (decision 217). The store keeps them (Store.windowCounter): on
 * PostgreSQL in the "QuotaCounter" table, so every instance on one database spends one caller's
 * budget together; on SQLite (one process) in memory. The counters only count: whether a count
 * is over a caller's limit is decided by caller-quotas.ts, because the limit depends on the caller
 * (an API key's own quotas) and one limiter has one `points`.
 */
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { createHash } from 'node:crypto';
import { store } from '../db/store';
import { MAX_QUOTA } from '../config/settings';
import { appPart } from '../process-singleton';

export type CountedQuota = 'requests' | 'stored_bytes';

/** Counts pass a limit by what was in flight; the counter itself must never refuse (int4 column). */
const COUNTER_CEILING = 2 * MAX_QUOTA;

/** The library's key column is varchar(255): long owners (OIDC issuer + subject) are hashed. */
const counterKey = (owner: string) => (owner.length <= 200 ? owner : `sha256:${createHash('sha256').update(owner).digest('hex')}`);

export interface WindowCount {
  /** What the owner used in the current window, this use included. */
  used: number;
  /** Milliseconds until the current window ends. */
  msLeft: number;
}

const createCounter = (quota: CountedQuota, windowSeconds: number): Promise<RateLimiterAbstract> =>
  store().windowCounter({ keyPrefix: quota, points: COUNTER_CEILING, duration: windowSeconds });

const counters = () => appPart('quotaCounters', () => new Map<string, Promise<RateLimiterAbstract>>());

function counter(quota: CountedQuota, windowSeconds: number): Promise<RateLimiterAbstract> {
  const all = counters();
  const name = `${quota}/${windowSeconds}`;
  let found = all.get(name);
  if (!found) all.set(name, (found = createCounter(quota, windowSeconds)));
  return found;
}

/** Adds `amount` to the owner's count in the current window and returns the count. */
export async function addToWindow(quota: CountedQuota, windowSeconds: number, owner: string, amount: number): Promise<WindowCount> {
  const res = await (await counter(quota, windowSeconds)).penalty(counterKey(owner), amount);
  return { used: res.consumedPoints, msLeft: Math.max(0, res.msBeforeNext) };
}

/** The owner's count in the current window (0 and no wait when it has none). */
export async function readWindow(quota: CountedQuota, windowSeconds: number, owner: string): Promise<WindowCount> {
  const res = await (await counter(quota, windowSeconds)).get(counterKey(owner));
  return res ? { used: res.consumedPoints, msLeft: Math.max(0, res.msBeforeNext) } : { used: 0, msLeft: 0 };
}

declare module '../process-singleton' {
  interface AppParts {
    /** The window counters. */
    quotaCounters: Map<string, Promise<RateLimiterAbstract>>;
  }
}
