/**
 * Counts database work when SWITCHBOARD_QUERY_LOG=1 (benchmarks, diagnosis): Prisma queries at
 * the driver adapter, hot-path reads, queued writes, the commits that carried them, every
 * statement on the shared SQLite connection, and SQLite's WAL checkpoint passes. With the flag
 * unset nothing is wrapped and counting is one boolean test. GET /api/debug/queries shows the
 * counts, and exists only with the flag set (bench scenario 6 and tests/protocol/idle-queries.test.ts
 * prove that waiting work costs no queries at all).
 */
import { appPart } from '../process-singleton';

export interface QueryCounts {
  /** Statements Prisma sent through the driver adapter. */
  prisma: number;
  /** Hot-path reads (sqlite/reader.ts). */
  reads: number;
  /** Queued writes (one per task change). */
  writes: number;
  /** Transactions that committed those writes (group commit: writes ≥ commits). */
  commits: number;
  /**
   * Every statement run on the SQLite connection that the writer, the hot-path reads and the
   * repositories share (writes and reads above included; Prisma's own connection is `prisma`).
   */
  sqlite: number;
  /** SQLite WAL checkpoint passes of the worker thread (sqlite/wal-checkpointer.ts). */
  checkpoints: number;
}

interface Counter {
  enabled: boolean;
  counts: QueryCounts;
}

// The app's: the statements of every bundle's store count together (SWITCHBOARD_QUERY_LOG).
const counter = () =>
  appPart('queryCounter', () => ({
    enabled: process.env.SWITCHBOARD_QUERY_LOG === '1',
    counts: { prisma: 0, reads: 0, writes: 0, commits: 0, sqlite: 0, checkpoints: 0 },
  }));

export function queryLogEnabled(): boolean {
  return counter().enabled;
}

export function countQueries(kind: keyof QueryCounts, n = 1): void {
  const c = counter();
  if (c.enabled) c.counts[kind] += n;
}

export function queryCounts(): QueryCounts {
  return { ...counter().counts };
}

type Fn = (...args: unknown[]) => unknown;

/** Wraps an object so that calls to `methods` are counted; other members pass through. */
function counting<T extends object>(target: T, methods: Record<string, (result: unknown) => unknown>): T {
  return new Proxy(target, {
    get(t, prop) {
      const value = Reflect.get(t, prop, t);
      if (typeof value !== 'function') return value;
      const after = typeof prop === 'string' ? methods[prop] : undefined;
      if (!after) return (value as Fn).bind(t);
      return (...args: unknown[]) => after((value as Fn).apply(t, args));
    },
  });
}

const countPrisma = (result: unknown) => {
  countQueries('prisma');
  return result;
};

/** A Prisma driver-adapter factory whose adapters (and their transactions) count queries. */
export function countingAdapterFactory<F extends object>(factory: F): F {
  const wrapAdapter = (adapter: object): object =>
    counting(adapter, {
      queryRaw: countPrisma,
      executeRaw: countPrisma,
      startTransaction: (tx) => (tx as Promise<object>).then((t) => counting(t, { queryRaw: countPrisma, executeRaw: countPrisma })),
    });
  return counting(factory, { connect: (adapter) => (adapter as Promise<object>).then(wrapAdapter) });
}

declare module '../process-singleton' {
  interface AppParts {
    /** Statement counts (SWITCHBOARD_QUERY_LOG). */
    queryCounter: Counter;
  }
}
