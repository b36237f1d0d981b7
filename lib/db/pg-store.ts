/**
 * The PostgreSQL store of one process: the pool, the migrations (applied once, before any
 * query: every user of the pool awaits `ready`), the task writer and reader, and the Prisma
 * client through @prisma/adapter-pg (generated from the derived schema, lib/db/generated-pg;
 * docs/decisions.md says why there are two generated clients).
 */
import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { PrismaClient as PgPrismaClient } from './generated-pg/client';
import { createPgPool, pgApplicationName } from './pg-pool';
import { applyPgMigrations } from './pg-migrate';
import { PgTaskWriter } from './pg-writer';
import { PgReadPipe, PgTaskReader } from './pg-reader';
import { countingAdapterFactory, queryLogEnabled } from './query-counter';
import { notifyStatements } from './pg-notify';
import { outboxStatementsPg } from './change-outbox';
import { instanceId } from './instance';
import { errorMessage, log } from '../log';

const POOL_SIZE = 10;
/** The hot-path reads' pipelined connections (pg-reader.ts): each carries a whole turn's reads. */
const READ_CONNECTIONS = 3;

export interface PgStore {
  pool: pg.Pool;
  /** Settles once the migrations are applied (rejects if they failed). */
  ready: Promise<void>;
  writer: PgTaskWriter;
  reader: PgTaskReader;
  prisma: PgPrismaClient;
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

export function createPgStore(databaseUrl: string): PgStore {
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
  const adapter = afterReady(new PrismaPg(pool), ready);
  return {
    pool,
    ready,
    // Its own pipelined connection: one batch at a time, its statements sent together
    // (pg-write-queue.ts). The batch's outbox rows (change-outbox.ts) commit with it; other
    // instances learn of each group commit from its NOTIFY (pg-notify.ts).
    writer: new PgTaskWriter(createPgPool(databaseUrl, 1, { pipeline: true, applicationName: named('writer') }), ready, {
      withCommit: (values) => [...outboxStatementsPg(values), ...notifyStatements(instanceId(), values)],
    }),
    reader: new PgTaskReader(new PgReadPipe(createPgPool(databaseUrl, READ_CONNECTIONS, { pipeline: true, applicationName: named('reader') })), ready),
    prisma: new PgPrismaClient({ adapter: queryLogEnabled() ? countingAdapterFactory(adapter) : adapter }),
  };
}
