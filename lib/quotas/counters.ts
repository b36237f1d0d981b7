/**
 * The per-caller counters behind the rate and stored-bytes quotas: fixed windows kept by
 * rate-limiter-flexible (decision 217). On PostgreSQL they live in the "QuotaCounter" table
 * (migration 0016) on the store's pool, so every instance on one database spends one caller's
 * budget together; on SQLite (one process) in memory. The counters only count: whether a count
 * is over a caller's limit is decided by caller-quotas.ts, because the limit depends on the caller
 * (an API key's own quotas) and one limiter has one `points`.
 */
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { createHash } from 'node:crypto';
import { currentStore, storeReady } from '../db/client';
import { createPgPool, pgApplicationName } from '../db/pg-pool';
import { instanceId } from '../db/instance';
import { getSettings, MAX_QUOTA } from '../config/settings';
import { processSingleton } from '../process-singleton';

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

/** Connections of their own: a request's count is one statement, sent as soon as it arrives. */
const COUNTER_CONNECTIONS = 2;

/**
 * The counters' pool. Its commits do not wait for the WAL flush (synchronous_commit=off): a
 * count is worth less than the fsync, which measured doubled the time of an A2A call on a busy
 * disk (decision 217), and a crash loses at most the last fraction of a second of counts.
 */
const counterPool = () =>
  processSingleton('quota-counter-pool', () =>
    createPgPool(getSettings().databaseUrl, COUNTER_CONNECTIONS, { applicationName: pgApplicationName(instanceId(), 'quotas'), sessionOptions: '-c synchronous_commit=off' }),
  );

async function createCounter(quota: CountedQuota, windowSeconds: number): Promise<RateLimiterAbstract> {
  const options = { keyPrefix: quota, points: COUNTER_CEILING, duration: windowSeconds };
  if (currentStore() !== 'postgresql') return new RateLimiterMemory(options);
  await storeReady(); // the table comes with the migrations
  return new RateLimiterPostgres({ ...options, storeClient: counterPool(), storeType: 'pool', tableName: 'QuotaCounter', tableCreated: true });
}

const counters = () => processSingleton('quota-counters', () => new Map<string, Promise<RateLimiterAbstract>>());

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
