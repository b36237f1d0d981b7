/**
 * The query plans of the dashboard's list, search and count queries and of the task pruner, on
 * SQLite (issue 28: "queries that scan must not exist: show the plan of each"). Seeds `--tasks N`
 * tasks (default 20,000) through lib/db's writer (bench/seed.ts), runs the dashboard's own
 * functions (lib/dashboard/task-list.ts) with Prisma's statements captured at the driver adapter,
 * and prints `EXPLAIN QUERY PLAN` of each statement with the time the call took. A line that
 * reads a whole table (`SCAN <table>` without an index) is marked `<< SCAN`.
 *
 *   npx tsx bench/query-plans.ts [--tasks N]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { seed, RARE_WORD } from './seed';

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

function parseTasks(argv: string[]): number {
  const i = argv.indexOf('--tasks');
  const n = i >= 0 ? Number(argv[i + 1]) : 20_000;
  if (!Number.isInteger(n) || n < 1) throw new Error('--tasks: expected a positive whole number');
  return n;
}

async function main(): Promise<void> {
  const tasks = parseTasks(process.argv.slice(2));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-plans-'));
  const file = path.join(dir, 'switchboard.db');
  process.env.DATABASE_URL = `file:${file}`;
  process.env.SWITCHBOARD_LOG_LEVEL = 'error';
  const { ids } = seed(file, tasks);
  const conn = new Database(file, { readonly: true });
  // The dashboard's Prisma client, with its statements recorded: installed where db() looks first.
  const { PrismaClient } = await import('../lib/db/generated/client');
  const factory = new PrismaBetterSqlite3({ url: file, timeout: 10_000 });
  const recordingFactory = capturing(factory, (prop, fn, t) => (prop === 'connect' ? async () => recordQueries((await fn.call(t)) as object) : undefined));
  (globalThis as unknown as Record<symbol, unknown>)[Symbol.for('switchboard.db')] = new PrismaClient({ adapter: recordingFactory });
  const { listTaskPage, taskCounts } = await import('../lib/dashboard/task-list');
  const { loadTaskDetail } = await import('../lib/dashboard/task-detail');
  const { TASK_PRUNE } = await import('../lib/db/task-pruner');

  const first = await listTaskPage({ limit: 50 });
  const probes: [string, () => Promise<unknown>][] = [
    ['list, first page', () => listTaskPage({ limit: 50 })],
    ['list, deep page (cursor)', () => listTaskPage({ limit: 50, cursor: first.nextCursor ?? undefined })],
    ['list, state=failed', () => listTaskPage({ limit: 50, state: 'failed' })],
    ['list, state=detached', () => listTaskPage({ limit: 50, state: 'detached' })],
    ['list, agent=echo, 24h', () => listTaskPage({ limit: 50, agent: 'echo', range: '24h' })],
    ['list, outbound to peer lab', () => listTaskPage({ limit: 50, direction: 'outbound', agent: 'lab' })],
    [`search, rare word (${RARE_WORD})`, () => listTaskPage({ limit: 50, q: RARE_WORD })],
    ['search, no hit', () => listTaskPage({ limit: 50, q: 'nothing-matches' })],
    ['counts, no filter', () => taskCounts({})],
    ['counts, agent=echo', () => taskCounts({ agent: 'echo' })],
    ['task page (children)', () => loadTaskDetail(ids[Math.floor(ids.length / 2)])],
  ];
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`# Query plans (SQLite, ${tasks.toLocaleString('en-US')} tasks seeded)\n`);
  for (const [name, call] of probes) {
    captured.length = 0;
    const started = performance.now();
    await call();
    const ms = performance.now() - started;
    out(`## ${name} — ${ms.toFixed(1)} ms, ${captured.length} statement(s)`);
    for (const q of captured) printPlan(conn, q.sql, out);
  }
  out('## task pruner (lib/db/task-pruner.ts)');
  printPlan(conn, TASK_PRUNE.sqlite, out);
  conn.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

/** What a plan line costs, for the lines that read more than an index search: `<< SCAN` marks a read of a whole table or index. */
function verdict(detail: string, tables: Set<string>): string {
  const m = /^SCAN (?:main\.)?(\S+)(?: USING (COVERING )?INDEX)?/.exec(detail);
  if (!m || !tables.has(m[1])) return ''; // a CTE or subquery's own rows
  if (!detail.includes(' USING ')) return '   << SCAN (every row)';
  if (m[2]) return '   << SCAN (every index entry)';
  return '   (walks the index in order, stops when the page is full)';
}

function printPlan(conn: Database.Database, sql: string, out: (line: string) => void): void {
  const tables = new Set((conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
  const shown = sql.replace(/\s+/g, ' ').replace(/^SELECT (`main`\.`Task`\.`\w+`, )+`main`\.`Task`\.`\w+` FROM/, 'SELECT <task columns> FROM');
  out(`    ${shown.slice(0, 400)}${shown.length > 400 ? ' …' : ''}`);
  const stmt = conn.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const rows = stmt.all(...Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => null)) as { detail: string }[];
  for (const r of rows) out(`      ${r.detail}${verdict(r.detail, tables)}`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
