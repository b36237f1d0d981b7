/**
 * The query plans of the dashboard's list, search and count queries and of the task pruner
 * ("queries that scan must not exist: show the plan of each"). Seeds `--tasks N` tasks
 * (default 20,000) through lib/db's writer, runs the dashboard's own functions
 * (lib/dashboard/task-list.ts) with Prisma's statements captured at the driver adapter, and
 * prints the plan of each statement with the time the call took: SQLite's `EXPLAIN QUERY PLAN`
 * (seeded by bench/seed.ts; a read of a whole table or index is marked `<< SCAN`), or with
 * `--store postgresql` PostgreSQL's `EXPLAIN` on an embedded server (seeded through the task
 * repository, then VACUUM ANALYZE, as autovacuum would (it also moves the trigram indexes' pending entries into
 * the index proper); `Seq Scan` on a table is marked `<< SCAN`).
 *
 * With `--repeat R` each call runs R more times and p50/p95 are printed (the dashboard's counts
 * with their one-second cache emptied first, so every run counts); the database's size per task
 * closes the output. The 1M-task figures: `--tasks 1000000 --repeat 20`, each store.
 *
 * `--db FILE` measures a SQLite file seeded before (bench/seed.ts; migrated in place, kept), and
 * `--json FILE` also writes every call's statements, plans and whole-table or whole-index reads
 * (bench scenario 5 runs it so on the file it measured; the summary's last line says whether any
 * list, search or count statement scans).
 *
 * `--store postgresql --url URL` does the same on a PostgreSQL database seeded before (bench/seed-pg.ts).
 *
 *   npx tsx bench/query-plans.ts [--tasks N | --db FILE] [--repeat R] [--store sqlite|postgresql [--url URL]] [--json FILE]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { seed, storedIds, RARE_WORD } from './seed';
import { seedPg, storedIdsPg, storedTaskCountPg } from './seed-pg';
import { applyMigrations } from '../lib/db/sqlite/migrate';
import { startEmbeddedPostgres } from '../tests/support/embedded-postgres';
import { freshPgDatabase } from '../tests/support/postgres';

interface Captured {
  sql: string;
  args: unknown[];
}
const captured: Captured[] = [];

type Fn = (...args: unknown[]) => unknown;
/** The adapter's queryRaw/executeRaw, recorded on the way through (as lib/db/query-counter.ts counts them). */
function capturing<T extends object>(target: T, wrap: (prop: string, value: Fn, t: T) => Fn | undefined): T {
  return new Proxy(target, {
    get(t, prop) {
      const value = Reflect.get(t, prop, t);
      if (typeof value !== 'function') return value;
      return (typeof prop === 'string' && wrap(prop, value as Fn, t)) || (value as Fn).bind(t);
    },
  });
}
const recordQueries = (adapter: object): object =>
  capturing(adapter, (prop, fn, t) =>
    prop === 'queryRaw' || prop === 'executeRaw'
      ? (query: unknown) => {
          const q = query as { sql: string; args: unknown[] };
          captured.push({ sql: q.sql, args: q.args });
          return fn.call(t, query);
        }
      : undefined,
  );

interface PlanArgs {
  tasks: number;
  repeat: number;
  store: 'sqlite' | 'postgresql';
  /** SQLite: a file seeded before (bench/seed.ts), used in place (migrated, not reseeded). */
  db?: string;
  /** PostgreSQL: a database seeded before (bench/seed-pg.ts), used in place (migrated, not reseeded). */
  url?: string;
  /** Also write the probes, their plans and the scans found as JSON here (bench scenario 5 reads it). */
  json?: string;
}

/** One dashboard call: its statements with their plans, and the plan lines that read a whole table or index. */
export interface PlannedProbe {
  name: string;
  firstMs: number;
  p50?: number;
  p95?: number;
  statements: { sql: string; plan: string[] }[];
  scans: string[];
}

function parseArgs(argv: string[]): PlanArgs {
  const value = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const tasks = Number(value('--tasks') ?? 20_000);
  if (!Number.isInteger(tasks) || tasks < 1) throw new Error('--tasks: expected a positive whole number');
  const repeat = Number(value('--repeat') ?? 0);
  if (!Number.isInteger(repeat) || repeat < 0 || repeat > 1_000) throw new Error('--repeat: expected a whole number from 0 to 1000');
  const store = value('--store') ?? 'sqlite';
  if (store !== 'sqlite' && store !== 'postgresql') throw new Error('--store: sqlite or postgresql');
  const db = value('--db');
  if (db !== undefined && (store !== 'sqlite' || !fs.existsSync(db))) throw new Error('--db: an existing SQLite file seeded by bench/seed.ts (SQLite only)');
  const url = value('--url');
  if (url !== undefined && store !== 'postgresql') throw new Error('--url: a PostgreSQL database seeded by bench/seed-pg.ts (with --store postgresql)');
  return { tasks, repeat, store, db, url, json: value('--json') };
}

/** The store's Prisma client replaced by one whose statements are recorded (an own property shadows the store's getter). */
async function installDb(client: unknown): Promise<void> {
  const { store } = await import('../lib/db/store');
  Object.defineProperty(store(), 'prisma', { value: client, configurable: true });
}

/** A driver-adapter factory whose adapters record every statement. */
const recordingFactory = <F extends object>(factory: F): F =>
  capturing(factory, (prop, fn, t) => (prop === 'connect' ? async () => recordQueries((await fn.call(t)) as object) : undefined));

type Explain = (sql: string, args: unknown[]) => Promise<string[]>;

/** SQLite: seeded file, the dashboard's client on it, EXPLAIN QUERY PLAN on a read-only connection. */
interface Opened {
  ids: string[];
  explain: Explain;
  /** Bytes the database takes on disk (SQLite: file and WAL; PostgreSQL: pg_database_size). */
  size: () => Promise<number>;
  close: () => Promise<void>;
}

async function sqliteStore(tasks: number, seeded?: string): Promise<Opened> {
  const dir = seeded ? path.dirname(seeded) : fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-plans-'));
  const file = seeded ?? path.join(dir, 'switchboard.db');
  process.env.DATABASE_URL = `file:${file}`;
  if (seeded) applyMigrations(file);
  const { ids } = seeded ? { ids: storedIds(file) } : seed(file, tasks);
  const conn = new Database(file, { readonly: true });
  const { PrismaClient } = await import('../lib/db/generated/client');
  await installDb(new PrismaClient({ adapter: recordingFactory(new PrismaBetterSqlite3({ url: file, timeout: 10_000 })) }));
  const tables = new Set((conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
  // The statement's own values are bound: SQLite plans some terms by them (a partial index's
  // condition matches a bound value, and the statement is re-planned when it changes).
  const explain: Explain = async (sql, args) => {
    const rows = conn.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args.map(sqliteValue)) as { detail: string }[];
    return rows.map((r) => `${r.detail}${verdict(r.detail, tables)}`);
  };
  const size = async () => [file, `${file}-wal`].filter((f) => fs.existsSync(f)).reduce((sum, f) => sum + fs.statSync(f).size, 0);
  return { ids, explain, size, close: async () => (conn.close(), seeded ? undefined : fs.rmSync(dir, { recursive: true, force: true })) };
}

/** The tasks a seeded file holds, from its tallies (migration 0019). */
function storedTaskCount(file: string): number {
  const conn = new Database(file, { readonly: true });
  try {
    return Number((conn.prepare('SELECT SUM("count") AS "n" FROM "_task_tally"').get() as { n: number }).n);
  } finally {
    conn.close();
  }
}

/** A captured driver-adapter argument as better-sqlite3 binds it. */
const sqliteValue = (v: unknown): unknown => (typeof v === 'boolean' ? Number(v) : v instanceof Date ? v.toISOString() : v);

/**
 * PostgreSQL: an embedded server, migrated by the store, seeded by bench/seed-pg.ts (through the
 * store's writer, then analysed); or `seeded`, a database seeded before, used as it is.
 */
async function pgStoreFor(tasks: number, seeded?: string): Promise<Opened> {
  const server = seeded ? undefined : await startEmbeddedPostgres();
  const url = seeded ?? (await freshPgDatabase(server!.url));
  process.env.DATABASE_URL = url;
  const client = await import('../lib/db/client');
  await client.pgStore().ready;
  const { PrismaClient } = await import('../lib/db/generated-pg/client');
  await installDb(new PrismaClient({ adapter: recordingFactory(new PrismaPg(client.pgStore().pool)) }));
  const ids = seeded ? await storedIdsPg(url) : await seedPg(url, tasks, (m) => process.stderr.write(`${m}\n`));
  const explain: Explain = async (sql, args) => {
    const rows = (await client.pgQuery<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, args)).rows.map((r) => r['QUERY PLAN']);
    return rows.map((line) => `${line}${/Seq Scan on "?(Task|TaskEvent|Message|Artifact|PushDelivery|NotificationDelivery)"?\b/.test(line) ? '   << SCAN' : /Seq Scan on "?_task_tally_hour/.test(line) ? '   (the hourly tallies: a row per hour, agent or peer and state, not per task)' : /Seq Scan on "?_task_tally/.test(line) ? '   (the tallies: a row per agent or peer and state, not per task)' : ''}`);
  };
  const size = async () => Number((await client.pgQuery<{ n: string }>('SELECT pg_database_size(current_database()) AS n')).rows[0].n);
  return { ids, explain, size, close: async () => (await client.pgStore().pool.end(), await server?.stop()) };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const { repeat, store } = args;
  const tasks = args.db ? storedTaskCount(args.db) : args.url ? await storedTaskCountPg(args.url) : args.tasks;
  process.env.SWITCHBOARD_LOG_LEVEL = 'error';
  const opened = store === 'sqlite' ? await sqliteStore(tasks, args.db) : await pgStoreFor(tasks, args.url);
  const { ids } = opened;
  const { listTaskPage, taskCounts } = await import('../lib/dashboard/task-list');
  const loadTaskDetail = await taskPage();
  const { TASK_PRUNE } = await import('../lib/db/task-pruner');
  const { appPart } = await import('../lib/process-singleton');
  // The counts' one-second cache (lib/dashboard/task-list.ts) emptied first: every run counts.
  const uncachedCounts = (f: Parameters<typeof taskCounts>[0]) => () => (appPart('dashboardCounts', () => new Map()).clear(), taskCounts(f));

  const first = await listTaskPage({ limit: 50 });
  const probes: [string, () => Promise<unknown>][] = [
    ['list, first page', () => listTaskPage({ limit: 50 })],
    ['list, deep page (cursor)', () => listTaskPage({ limit: 50, cursor: first.nextCursor ?? undefined })],
    ['list, state=failed', () => listTaskPage({ limit: 50, state: 'failed' })],
    ['list, state=detached', () => listTaskPage({ limit: 50, state: 'detached' })],
    ['list, agent=echo', () => listTaskPage({ limit: 50, agent: 'echo' })],
    ['list, agent=echo, 24h', () => listTaskPage({ limit: 50, agent: 'echo', range: '24h' })],
    ['list, agent=nobody (no task)', () => listTaskPage({ limit: 50, agent: 'nobody' })],
    ['list, outbound to peer lab', () => listTaskPage({ limit: 50, direction: 'outbound', agent: 'lab' })],
    [`search, rare word (${RARE_WORD})`, () => listTaskPage({ limit: 50, q: RARE_WORD })],
    ['search, frequent word (invoice)', () => listTaskPage({ limit: 50, q: 'invoice' })],
    ['search, no hit', () => listTaskPage({ limit: 50, q: 'nothing-matches' })],
    ['search, rare word, agent=echo', () => listTaskPage({ limit: 50, q: RARE_WORD, agent: 'echo' })],
    ['counts, no filter', uncachedCounts({})],
    ['counts, agent=echo', uncachedCounts({ agent: 'echo' })],
    ['counts, outbound', uncachedCounts({ direction: 'outbound' })],
    [`counts, search ${RARE_WORD}`, uncachedCounts({ q: RARE_WORD })],
    ['counts, agent=echo, 24h', uncachedCounts({ agent: 'echo', range: '24h' })],
    ['counts, 24h', uncachedCounts({ range: '24h' })],
    ['counts, 7d', uncachedCounts({ range: '7d' })],
    ['counts, agent=echo, 7d', uncachedCounts({ agent: 'echo', range: '7d' })],
    ['counts, 15m', uncachedCounts({ range: '15m' })],
    ['counts, 1h', uncachedCounts({ range: '1h' })],
    ['counts, outbound, 7d', uncachedCounts({ direction: 'outbound', range: '7d' })],
    ['task page (children)', () => loadTaskDetail(ids[Math.floor(ids.length / 2)])],
  ];
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`# Query plans (${store}, ${tasks.toLocaleString('en-US')} tasks seeded)\n`);
  const summary: string[] = [];
  const report: PlannedProbe[] = [];
  for (const [name, call] of probes) {
    captured.length = 0;
    const started = performance.now();
    await call();
    const ms = performance.now() - started;
    const statements = [...captured];
    const times: number[] = [];
    for (let i = 0; i < repeat; i++) {
      const t0 = performance.now();
      await call();
      times.push(performance.now() - t0);
    }
    const spread = repeat ? `, p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms over ${repeat}` : '';
    out(`## ${name} — ${ms.toFixed(1)} ms${spread}, ${statements.length} statement(s)`);
    summary.push(`| ${name} | ${ms.toFixed(1)} | ${repeat ? percentile(times, 50).toFixed(1) : '–'} | ${repeat ? percentile(times, 95).toFixed(1) : '–'} |`);
    const planned: PlannedProbe = { name, firstMs: ms, ...(repeat ? { p50: percentile(times, 50), p95: percentile(times, 95) } : {}), statements: [], scans: [] };
    for (const q of statements) {
      const { shown, plan } = await printPlan(opened.explain, q.sql, q.args, out);
      planned.statements.push({ sql: shown, plan });
      planned.scans.push(...plan.filter((line) => FULL_SCAN.test(line)));
    }
    report.push(planned);
  }
  out('## task pruner (lib/db/task-pruner.ts)');
  const cutoff = new Date(Date.now() - 86_400_000).toISOString();
  await printPlan(opened.explain, store === 'sqlite' ? TASK_PRUNE.sqlite : TASK_PRUNE.pg, [cutoff, 100], out);
  const bytes = await opened.size();
  out(`\n## Summary (${store}, ${tasks.toLocaleString('en-US')} tasks, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')})\n`);
  out('| query | first ms | p50 ms | p95 ms |\n|---|---|---|---|');
  for (const line of summary) out(line);
  out(`\ndatabase size: ${(bytes / 1_048_576).toFixed(1)} MB, ${Math.round(bytes / tasks).toLocaleString('en-US')} bytes per task`);
  const scanning = report.filter((p) => p.scans.length);
  out(scanning.length ? `\n${scanning.length} call(s) read a whole table or index: ${scanning.map((p) => p.name).join('; ')}` : '\nno list, search or count statement reads a whole table or index');
  if (args.json) fs.writeFileSync(args.json, JSON.stringify({ store, tasks, bytes, loadavg: os.loadavg(), probes: report }, null, 2));
  await opened.close();
}

/**
 * The task page's loader. Under tsx (CommonJS) it cannot load: the engine it builds the snapshot
 * with reaches `canonicalize` (card signatures), an ESM-only package with no `require` export.
 * Then the page's own reads (the task, its events, its children) stand in: the statements whose
 * plans matter, without the snapshot's artifact and message reads by task id.
 */
async function taskPage(): Promise<(id: string) => Promise<unknown>> {
  try {
    return (await import('../lib/dashboard/task-detail')).loadTaskDetail;
  } catch (err) {
    if ((err as { code?: string }).code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED') throw err;
    process.stderr.write('task page: lib/dashboard/task-detail does not load under tsx (canonicalize is ESM-only); probing its reads\n');
    const { findTask, listEvents } = await import('../lib/db/task-repo');
    const { listChildTasks } = await import('../lib/db/task-graph');
    return async (id) => Promise.all([listEvents(id, 0), findTask(id), listChildTasks(id)]);
  }
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/** What a plan line costs, for the lines that read more than an index search: `<< SCAN` marks a read of a whole table or index. */
function verdict(detail: string, tables: Set<string>): string {
  if (detail.includes('VIRTUAL TABLE INDEX')) return '   (trigram index lookup)';
  if (/^SCAN (?:main\.)?_task_tally\b/.test(detail)) return '   (the tallies: a row per agent or peer and state, not per task)';
  if (/^SEARCH (?:main\.)?_task_tally_hour\b/.test(detail)) return '   (the hourly tallies: a row per hour, agent or peer and state, not per task)';
  const m = /^SCAN (?:main\.)?(\S+)(?: USING (COVERING )?INDEX)?/.exec(detail);
  if (!m || !tables.has(m[1])) return ''; // a CTE or subquery's own rows
  if (!detail.includes(' USING ')) return '   << SCAN (every row)';
  if (m[2]) return '   << SCAN (every index entry)';
  return '   (in index order, until the page is full: << SCAN of every row when few match, and for a count)';
}

/** The marks verdict() and the PostgreSQL explain put on a line that reads a whole table or index. */
const FULL_SCAN = /<< SCAN \((every row|every index entry)\)|<< SCAN$/;

async function printPlan(explain: Explain, sql: string, args: unknown[], out: (line: string) => void): Promise<{ shown: string; plan: string[] }> {
  const shown = sql.replace(/\s+/g, ' ').replace(/^SELECT ((`main`\.`Task`|"public"\."Task")\.[`"]\w+[`"], )+\S+ FROM/, 'SELECT <task columns> FROM');
  out(`    ${shown.slice(0, 400)}${shown.length > 400 ? ' …' : ''}`);
  const plan = await explain(sql, args);
  for (const line of plan) out(`      ${line}`);
  return { shown, plan };
}

if (process.argv[1]?.endsWith('query-plans.ts')) {
  // The store's writer and WAL checkpointer keep the event loop alive: exit when done.
  main().then(() => process.exit(0)).catch((err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
