/**
 * The PostgreSQL connection pool shared by the task writer, the hot-path reads and Prisma.
 * Timestamps (`timestamp(3)`, which Prisma reads as UTC) come back in the writer's text format
 * (`sqliteTime`), so task-repo maps rows from both providers alike and never parses a
 * timestamp in the process's local time zone.
 */
import { createRequire } from 'node:module';
import type pg from 'pg';
import { errorMessage, log } from '../../log';
import { appPart } from '../../process-singleton';

/**
 * The PostgreSQL packages (pg, @prisma/adapter-pg: ~3 MB of heap) are required by the first
 * PostgreSQL connection, not imported with this module: the store's module graph holds both
 * providers, and a SQLite hub never runs these (decision 410).
 */
const requirePgPackage = createRequire(import.meta.url);
export const pgDriver = () => requirePgPackage('pg') as typeof pg;
export const prismaPgAdapter = () => requirePgPackage('@prisma/adapter-pg') as typeof import('@prisma/adapter-pg');

const TIMESTAMP_OID = 1114;

/** `2026-12-01 09:32:16.12` (PostgreSQL's text form, UTC by convention) → `2026-12-01T09:32:16.120+00:00`. */
export function writerTimeFromPg(v: string): string {
  const fraction = v.length > 20 ? v.slice(20, 23).padEnd(3, '0') : '000';
  return `${v.slice(0, 10)}T${v.slice(11, 19)}.${fraction}+00:00`;
}

const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === TIMESTAMP_OID ? writerTimeFromPg : pgDriver().types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * The application_name of this instance's connections for `role`, so pg_stat_activity and the
 * server's log say which instance and which of its connections sent a statement (PostgreSQL
 * keeps 63 bytes of it). An `application_name` in DATABASE_URL wins over it.
 */
export const pgApplicationName = (instance: string, role: string) => `switchboard:${instance}:${role}`;

/**
 * `pipeline`: queries are sent without waiting for the previous one's answer (pg's pipeline mode).
 * `applicationName`: see pgApplicationName. `sessionOptions`: run-time settings for every
 * connection (libpq's `options`, e.g. `-c synchronous_commit=off`).
 */
export function createPgPool(connectionString: string, max: number, opts: { pipeline?: boolean; applicationName?: string; sessionOptions?: string } = {}): pg.Pool {
  const pool = new (pgDriver().Pool)({ connectionString, max, types, idleTimeoutMillis: 30_000, pipeline: opts.pipeline, application_name: opts.applicationName, options: opts.sessionOptions });
  // An idle connection dropped by the server (a restart, a failover) must not crash the
  // process; the pool opens a new one on the next query.
  pool.on('error', (err) => log.warn('postgres connection lost', { error: errorMessage(err) }));
  return pool;
}

/** Named statements are prepared once per connection; the distinct texts (guarded-UPDATE shapes included) are few. */
const MAX_NAMED = 256;

/**
 * Per app (as the store and its pool), not per module: each route bundle may hold
 * its own copy of this module, so per-module names would give two texts one name on a connection.
 */
const names = () => appPart('pgStatementNames', () => new Map<string, string>());

export function named(text: string, values: unknown[]): pg.QueryConfig {
  const statementNames = names();
  let name = statementNames.get(text);
  if (!name && statementNames.size < MAX_NAMED) statementNames.set(text, (name = `sb_${statementNames.size}`));
  return name ? { name, text, values } : { text, values };
}

interface WithSocket {
  connection?: { stream?: { cork?: () => void; uncork?: () => void } };
}

/**
 * Runs `send` (which issues queries on a pipelined client) with the client's socket corked, so
 * what it sends leaves in one write (pg itself corks each query's messages, not several queries).
 */
export function corked<T>(client: pg.PoolClient, send: () => T): T {
  const stream = (client as unknown as WithSocket).connection?.stream;
  stream?.cork?.();
  try {
    return send();
  } finally {
    stream?.uncork?.();
  }
}

declare module '../../process-singleton' {
  interface AppParts {
    /** Named statements of the store's pool. */
    pgStatementNames: Map<string, string>;
  }
}
