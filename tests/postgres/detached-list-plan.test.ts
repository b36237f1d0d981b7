/**
 * The detached list on PostgreSQL walks the partial index of open tasks newest first and stops at
 * the page (migration 0025's statistics). Its three conditions (open states, detached, no end)
 * are one population; planned as independent, PostgreSQL expected a handful of rows and chose a
 * bitmap AND of two indexes and a sort of every match (at 362,000 tasks: 7,217 rows, 101 ms).
 * With the statistics it expects the real share of them (asserted below, and its absence).
 *
 * The planner chooses by table statistics, so the table holds the seed's shares (bench/seed.ts):
 * 95% ended, 2.5% open and detached, 2.5% open; rows written by one INSERT … SELECT (what is
 * measured is the plan of the dashboard's statement, not the write path), then ANALYZE.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { freshStore } from '../support/in-process';

const TASKS = 20_000;
const captured: { sql: string; params: unknown[] }[] = [];
let pool: pg.Pool;

beforeAll(async () => {
  await freshStore();
  const { store } = await import('../../lib/db/store');
  await store().ready;
  pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
  await pool.query(`INSERT INTO "Task" ("id", "contextId", "direction", "agentSlug", "state", "detached", "createdAt", "updatedAt", "endedAt")
    SELECT 'plan-' || i, 'ctx-' || i, 'inbound', 'echo',
      CASE WHEN i % 40 < 2 THEN 'working' ELSE 'completed' END, i % 40 = 0,
      now() - i * interval '1 minute', now() - i * interval '1 minute',
      CASE WHEN i % 40 < 2 THEN NULL ELSE now() - i * interval '1 minute' END
    FROM generate_series(1, ${TASKS}) AS i`);
  await pool.query('ANALYZE "Task"');
  const { PrismaClient } = await import('../../lib/db/generated-pg/client');
  const client = new PrismaClient({ adapter: new PrismaPg(pool), log: [{ emit: 'event', level: 'query' }] });
  client.$on('query', (e) => captured.push({ sql: e.query, params: JSON.parse(e.params) as unknown[] }));
  // The store's statements go through this client (an own property shadows the store's getter).
  Object.defineProperty(store(), 'prisma', { value: client, configurable: true });
}, 180_000);

afterAll(async () => {
  await pool.end();
});

/** The seed's detached tasks (i % 40 = 0). */
const DETACHED = TASKS / 40;

/** The rows the planner expects from the detached list's table read (the first node on "Task"). */
function detachedEstimate(plan: string): number {
  const line = plan.split('\n').find((l) => l.includes(' on "Task"'));
  return Number(/rows=(\d+)/.exec(line ?? '')?.[1] ?? NaN);
}

/** PostgreSQL's plan of the one statement `call` sends, with its own values. */
async function planOf(call: () => Promise<unknown>): Promise<string> {
  captured.length = 0;
  await call();
  expect(captured).toHaveLength(1);
  const rows = (await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${captured[0].sql}`, captured[0].params)).rows;
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

describe('the detached list on PostgreSQL', () => {
  it('walks the open tasks\' partial index newest first, not every open task', async () => {
    const { listTaskPage } = await import('../../lib/dashboard/task-list');
    const list = () => listTaskPage({ limit: 50, state: 'detached' });
    const plan = await planOf(list);
    expect(plan).toContain('Index Scan Backward using "Task_open_detached_createdAt_idx"');
    expect(plan).not.toContain('BitmapAnd');
    expect(detachedEstimate(plan)).toBeGreaterThan(DETACHED / 4); // the real share, not a product of three
    const page = await list();
    expect(page.tasks).toHaveLength(50);
    expect(page.tasks.every((t) => t.detached && t.state === 'working')).toBe(true);
  });

  it('expects a handful of detached tasks without the statistics', async () => {
    await pool.query('DROP STATISTICS "Task_state_detached_endedAt_stat"');
    await pool.query('ANALYZE "Task"');
    const { listTaskPage } = await import('../../lib/dashboard/task-list');
    // With 0022's indexes the plan at this size is the partial index either way (at 362,000 tasks
    // before 0022 it was the bitmap AND); what the statistics change is the estimate it rests on.
    expect(detachedEstimate(await planOf(() => listTaskPage({ limit: 50, state: 'detached' })))).toBeLessThan(DETACHED / 50);
  });
});
