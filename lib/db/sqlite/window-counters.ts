/** Window counters of one process (the SQLite store has one instance): rate-limiter-flexible in memory. */
import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { WindowCounterOptions } from '../store';

export async function sqliteWindowCounter(options: WindowCounterOptions): Promise<RateLimiterAbstract> {
  return new RateLimiterMemory(options);
}
