/**
 * Window counters shared by every instance on the database: rate-limiter-flexible's PostgreSQL
 * store on the "QuotaCounter" table (migration 0016; created by the migrations, never at run time).
 * The counters have a pool of their own whose commits do not wait for the WAL flush
 * (synchronous_commit=off): a count is worth less than the fsync, which measured doubled the time
 * of an A2A call on a busy disk (decision 217); a crash loses at most the last fraction of a
 * second of counts.
 */
import { RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type pg from 'pg';
import { createPgPool, pgApplicationName } from './pool';
import { instanceId } from '../instance';
import type { WindowCounterOptions } from '../store';

/** Connections of their own: a request's count is one statement, sent as soon as it arrives. */
const COUNTER_CONNECTIONS = 2;

export function pgWindowCounters(databaseUrl: string, ready: Promise<void>): (options: WindowCounterOptions) => Promise<RateLimiterAbstract> {
  let pool: pg.Pool | null = null;
  return async (options) => {
    await ready; // the table comes with the migrations
    pool ??= createPgPool(databaseUrl, COUNTER_CONNECTIONS, { applicationName: pgApplicationName(instanceId(), 'quotas'), sessionOptions: '-c synchronous_commit=off' });
    return new RateLimiterPostgres({ ...options, storeClient: pool, storeType: 'pool', tableName: 'QuotaCounter', tableCreated: true });
  };
}
