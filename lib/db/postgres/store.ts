/**
 * The PostgreSQL store of one process (a postgres:// DATABASE_URL): the pool, the migrations
 * (applied once, before any query: every user of the pool awaits `ready`), the task writer and
 * reader, the outboxes and launcher tables on the pool, the cluster membership (several
 * instances may share the database: cluster-member.ts), and the Prisma client through @prisma/adapter-pg (generated from the derived schema, lib/db/generated-pg;
 * docs/decisions.md says why there are two generated clients).
 */
import type { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { PrismaClient as PgPrismaClient } from '../generated-pg/client';
import { createPgPool, named as namedStatement, pgApplicationName, prismaPgAdapter } from './pool';
import { applyPgMigrations } from './migrate';
import { PgTaskWriter } from './writer';
import { PgReadPipe, PgTaskReader } from './reader';
import { countingAdapterFactory, queryLogEnabled } from '../query-counter';
import { notifyStatements } from './notify';
import { instanceId } from '../instance';
import { errorMessage, log } from '../../log';
import { ClusterMember } from './cluster-member';
import { outboxStatementsPg, pgNotifications, pgPushDeliveries } from './outboxes';
import { pgWindowCounters } from './window-counters';
import { foldTaskTallies } from './tallies';
import { pgLaunchedGroups, pgLauncherSessions } from './launches';
import type { Db, Store } from '../store';
import type { PruneStatement } from '../prune-batches';

const POOL_SIZE = 10;
/** The hot-path reads' pipelined connections (postgres/reader.ts): each carries a whole turn's reads. */
const READ_CONNECTIONS = 3;

/** One named statement on the pool, after the migrations. */
export type PgQuery = <R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<pg.QueryResult<R>>;

export interface PgStore extends Store {
  readonly kind: 'postgresql';
  pool: pg.Pool;
  /** Settles once the migrations are applied (rejects if they failed). */
  ready: Promise<void>;
  writer: PgTaskWriter;
  reader: PgTaskReader;
  prisma: Db;
  /** A named statement on the pool after `ready` (the tables beside the task store; tests). */
  query: PgQuery;
}

/** A driver-adapter factory whose connections open only after `ready`. */
function afterReady(factory: PrismaPg, ready: Promise<void>): Pick<PrismaPg, 'provider' | 'adapterName' | 'connect'> {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => {
      await ready;
      return factory.connect();
    },
  };
}

export function createPostgresStore(databaseUrl: string): PgStore {
  const named = (role: string) => pgApplicationName(instanceId(), role);
  const pool = createPgPool(databaseUrl, POOL_SIZE, { applicationName: named('main') });
  const ready = applyPgMigrations(pool).then(
    () => undefined,
    (err: unknown) => {
      log.error('postgresql migrations failed', { error: errorMessage(err) });
      throw err;
    },
  );
  ready.catch(() => undefined); // reported above; every user of the store awaits it and fails
  const adapter = afterReady(new (prismaPgAdapter().PrismaPg)(pool), ready);
  const query: PgQuery = async (text, values = []) => {
    await ready;
    return pool.query(namedStatement(text, values));
  };
  return {
    kind: 'postgresql',
    pool,
    ready,
    query,
    // Its own pipelined connection: one batch at a time, its statements sent together
    // (postgres/write-queue.ts). The batch's outbox rows (change-outbox.ts) commit with it; other
    // instances learn of each group commit from its NOTIFY (postgres/notify.ts).
    writer: new PgTaskWriter(createPgPool(databaseUrl, 1, { pipeline: true, applicationName: named('writer') }), ready, {
      withCommit: (values) => [...outboxStatementsPg(values), ...notifyStatements(instanceId(), values)],
    }),
    reader: new PgTaskReader(new PgReadPipe(createPgPool(databaseUrl, READ_CONNECTIONS, { pipeline: true, applicationName: named('reader') })), ready),
    // The same model API as the SQLite client (both generated from prisma/schema.prisma).
    prisma: new PgPrismaClient({ adapter: queryLogEnabled() ? countingAdapterFactory(adapter) : adapter }) as unknown as Db,
    pushDeliveries: pgPushDeliveries(query),
    notifications: pgNotifications(query),
    launchedGroups: pgLaunchedGroups(query),
    launcherSessions: pgLauncherSessions(query),
    deleteBatch: async (statement: PruneStatement, values: unknown[]) => (await query(statement.pg, values)).rowCount ?? 0,
    // SQLite's LIKE ignores ASCII case; PostgreSQL's needs Prisma's insensitive mode to match alike.
    // `%`, `_` and `\` escaped: a search is text, not a pattern (the LIKE escape is `\`); served
    // by the trigram GIN indexes (migrations-postgresql/0019).
    textContains: (search: string) => ({ contains: search.replace(/[\\%_]/g, (c) => `\\${c}`), mode: 'insensitive' as const }),
    textSearch: null,
    sqlParam: (n: number) => `$${n}`,
    foldTaskTallies: (emptyRows: number) => foldTaskTallies(() => ready.then(() => pool), emptyRows),
    membership: new ClusterMember(() => ready.then(() => pool)),
    windowCounter: pgWindowCounters(databaseUrl, ready),
  };
}
