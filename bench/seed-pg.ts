/**
 * Seeds a PostgreSQL database with N tasks, the mix of bench/seed.ts (the same generator:
 * seedTasks), through the store's own task writer (lib/db/postgres/writer.ts: the statements
 * the server sends, its group commits, and the tables' triggers: tallies, search columns,
 * indexes), then moves each task back to its time in the last 30 days, as bench/seed.ts does.
 *
 * Fast enough for 1M (the earlier seeder awaited each task's four writes one after another
 * through the store, ~110 tasks/s): in process, every write of CHUNK tasks queued at once (the
 * writer sends them as group commits of up to 1,000 writes, two round trips each), and the
 * seeder's connections commit with `synchronous_commit=off` (what is written is the same; only
 * the wait for each commit's WAL flush is skipped, which a seed does not need).
 *
 * One writer connection, not several: every change of a task updates the tally rows of its hour
 * (migrations 0019, 0021), so parallel transactions wait on each other's row locks (and two
 * batches taking them in different orders deadlock), and the machine has two cores.
 *
 *   npx tsx bench/seed-pg.ts --dir /tmp/pg1m [--tasks 1000000]     # an embedded server, data kept in DIR
 *   npx tsx bench/seed-pg.ts --url postgres://… [--tasks N]          # a server already running
 *   npx tsx bench/seed-pg.ts --dir /tmp/pg1m --tasks 1000000 --until 11:30   # stop at 11:30 UTC with what is seeded
 *   npx tsx bench/seed-pg.ts --dir /tmp/pg1m --serve                 # start it on DIR and print its URL until Ctrl-C
 */
import pg from 'pg';
import { PgTaskWriter } from '../lib/db/postgres/writer';
import { createPgPool } from '../lib/db/postgres/pool';
import { applyPgMigrations } from '../lib/db/postgres/migrate';
import { sqliteTime } from '../lib/db/task-store';
import { seedTasks, type SeedTask } from './seed';
import { startEmbeddedPostgres, type EmbeddedServer } from '../tests/support/embedded-postgres';

/** Tasks whose writes are queued together; then their times are set in one statement each table. */
const CHUNK = 2_000;
const FAST_COMMIT = '-c synchronous_commit=off';

/** Each task's writes, queued at once: the writer keeps a task's writes in order (their key is its id). */
function writeTask(writer: PgTaskWriter, t: SeedTask): Promise<unknown>[] {
  const writes: Promise<unknown>[] = [
    writer.queueInsertTask(t.task, t.events, t.messages),
    writer.queueAppend(t.id, t.chunks, {}, { onlyIfStateIn: ['working'] }, [], false),
  ];
  if (t.detach) writes.push(writer.queueAppend(t.id, t.detach.events, t.detach.patch, {}, [], false));
  if (t.end) writes.push(writer.queueAppend(t.id, t.end.events, t.end.patch, { onlyIfNotTerminal: true }, t.end.messages, true));
  return writes;
}

/** Every task of the chunk (and its events) moved back to its creation time; the tally triggers move its counts. */
const SET_TIMES = `UPDATE "Task" t SET "createdAt" = x.c, "updatedAt" = x.c + interval '2 seconds',
  "endedAt" = CASE WHEN t."endedAt" IS NULL THEN NULL ELSE x.c + interval '2 seconds' END
FROM unnest($1::text[], $2::timestamp(3)[]) AS x(id, c) WHERE t."id" = x.id`;
const SET_EVENT_TIMES = 'UPDATE "TaskEvent" e SET "at" = x.c FROM unnest($1::text[], $2::timestamp(3)[]) AS x(id, c) WHERE e."taskId" = x.id';

/**
 * Seeds up to `count` tasks into the database at `url` (migrated first); returns their ids.
 * `stopAt` (epoch ms): stop after the chunk that passes it (every chunk is whole: written, times
 * set), with fewer tasks that still cover the 30 days.
 */
export async function seedPg(url: string, count: number, log: (m: string) => void = () => {}, stopAt = Infinity): Promise<string[]> {
  const pool = createPgPool(url, 1, { sessionOptions: FAST_COMMIT, applicationName: 'switchboard:seed' });
  const ready = applyPgMigrations(pool);
  const writer = new PgTaskWriter(createPgPool(url, 1, { pipeline: true, sessionOptions: FAST_COMMIT, applicationName: 'switchboard:seed-writer' }), ready);
  await ready;
  const ids: string[] = [];
  const tasks = seedTasks(count, false);
  const started = Date.now();
  try {
    for (let done = 0; done < count && Date.now() < stopAt;) {
      const chunk: SeedTask[] = [];
      for (let k = 0; k < CHUNK && done + k < count; k++) chunk.push(tasks.next().value as SeedTask);
      await Promise.all(chunk.flatMap((t) => writeTask(writer, t)));
      const times = [chunk.map((t) => t.id), chunk.map((t) => sqliteTime(new Date(t.created)))];
      await pool.query(SET_TIMES, times);
      await pool.query(SET_EVENT_TIMES, times);
      ids.push(...times[0]);
      done += chunk.length;
      if (done % 20_000 === 0 || done === count || Date.now() >= stopAt) {
        const s = (Date.now() - started) / 1000;
        log(`seeded ${done} tasks (${s.toFixed(0)} s, ${Math.round(done / s)} tasks/s)`);
      }
    }
    // As autovacuum would: the visibility map (index-only scans), the trigram indexes' pending
    // entries moved into the index proper, and the planner's statistics.
    await pool.query('VACUUM ANALYZE');
  } finally {
    await pool.end();
  }
  return ids;
}

async function queryOnce<R extends pg.QueryResultRow>(url: string, sql: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** The database's size on disk (tables, indexes, TOAST; its share of the WAL is not counted). */
export const pgDatabaseBytes = async (url: string): Promise<number> =>
  Number((await queryOnce<{ n: string }>(url, 'SELECT pg_database_size(current_database()) AS n'))[0].n);

/** Some task ids of a seeded database, spread over its history (a sample of the table's pages, not a read of every row). */
export const storedIdsPg = async (url: string): Promise<string[]> =>
  (await queryOnce<{ id: string }>(url, 'SELECT "id" FROM "Task" TABLESAMPLE SYSTEM (1) LIMIT 5000')).map((r) => r.id);

/** The tasks a seeded database holds, from its tallies (migration 0019). */
export const storedTaskCountPg = async (url: string): Promise<number> =>
  Number((await queryOnce<{ n: string }>(url, 'SELECT SUM("count") AS n FROM "_task_tally"'))[0].n);

/** An embedded server on `dir` (created on first use, kept when it stops); `switchboard` is the database. */
export async function embeddedOn(dir: string, flags: string[] = []): Promise<{ server: EmbeddedServer; url: string }> {
  const server = await startEmbeddedPostgres(flags, { databaseDir: dir });
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  try {
    const exists = (await admin.query("SELECT 1 FROM pg_database WHERE datname = 'switchboard'")).rowCount;
    if (!exists) await admin.query('CREATE DATABASE "switchboard"');
  } finally {
    await admin.end();
  }
  const url = new URL(server.url);
  url.pathname = '/switchboard';
  return { server, url: url.toString() };
}

async function cli(argv: string[]): Promise<void> {
  const value = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const count = Number(value('--tasks') ?? 100_000);
  // --until HH:MM (UTC): stop seeding then (a shared machine's rate is not known in advance).
  const until = value('--until');
  const stopAt = until ? Date.parse(`${new Date().toISOString().slice(0, 10)}T${until}:00Z`) : Infinity;
  const dir = value('--dir');
  if (!dir === !value('--url') || !Number.isInteger(count) || count < 1) {
    throw new Error('usage: npx tsx bench/seed-pg.ts (--dir DIR | --url URL) [--tasks N] [--until HH:MM] [--serve]');
  }
  const log = (m: string) => process.stderr.write(`${m}\n`);
  const serve = argv.includes('--serve');
  // While seeding: checkpoints (and the full-page images after each) less often than PostgreSQL's 1 GB of WAL.
  const embedded = dir ? await embeddedOn(dir, serve ? [] : ['-c', 'max_wal_size=8GB', '-c', 'checkpoint_timeout=30min']) : undefined;
  const url = embedded?.url ?? value('--url')!;
  if (serve) {
    process.stdout.write(`${url}\n`);
    await new Promise<void>((resolve) => process.once('SIGINT', resolve).once('SIGTERM', resolve));
  } else {
    const t = Date.now();
    const ids = await seedPg(url, count, log, stopAt);
    log(`seeded ${ids.length} tasks in ${((Date.now() - t) / 1000).toFixed(0)} s`);
  }
  await embedded?.server.down();
}

if (process.argv[1]?.endsWith('seed-pg.ts')) {
  process.env.SWITCHBOARD_LOG_LEVEL ??= 'warn';
  cli(process.argv.slice(2)).then(() => process.exit(0)).catch((err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
