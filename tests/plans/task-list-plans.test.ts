/**
 * The statements the dashboard sends for the detached list and for counts over a time range
 * (with and without the agent filter) are answered from migration 0020's indexes and 0021's
 * hourly tallies on SQLite, and 0022's partial and widened indexes still serve the lists, the
 * children and the pruner: the
 * plan SQLite makes for each captured statement names the index, and no line reads a whole table
 * or index. (PostgreSQL's planner needs real table sizes to choose; bench/query-plans.ts shows
 * its plans at scale.) SQLite only: its planner has no statistics, so the plan is the same at
 * ten tasks as at a million.
 */
import Database from 'better-sqlite3';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from '../support/in-process';

const captured: { sql: string; params: unknown[] }[] = [];
let file: string;

beforeAll(async () => {
  await freshStore();
  const { sqliteFilePath } = await import('../../lib/db/sqlite/path');
  file = sqliteFilePath(process.env.DATABASE_URL ?? '');
  const { store } = await import('../../lib/db/store');
  await store().ready;
  const { PrismaClient } = await import('../../lib/db/generated/client');
  const client = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: file }), log: [{ emit: 'event', level: 'query' }] });
  client.$on('query', (e) => captured.push({ sql: e.query, params: JSON.parse(e.params) as unknown[] }));
  // The store's statements go through this client (an own property shadows the store's getter).
  Object.defineProperty(store(), 'prisma', { value: client, configurable: true });
});

/** SQLite's plan of every statement `call` sends, its own values bound. */
async function plansOf(call: () => Promise<unknown>): Promise<string[][]> {
  captured.length = 0;
  await call();
  const conn = new Database(file, { readonly: true });
  try {
    const bind = (v: unknown) => (typeof v === 'boolean' ? Number(v) : v);
    return captured.map((q) => (conn.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.params.map(bind)) as { detail: string }[]).map((r) => r.detail));
  } finally {
    conn.close();
  }
}

const wholeRead = (line: string) => /^SCAN (main\.)?Task\b/.test(line);

describe('the list and counts plans on SQLite', () => {
  it('lists detached tasks from the partial index of open tasks', async () => {
    const { listTaskPage } = await import('../../lib/dashboard/task-list');
    const plans = await plansOf(() => listTaskPage({ limit: 50, state: 'detached' }));
    expect(plans).toHaveLength(1);
    expect(plans[0].join('\n')).toContain('USING INDEX Task_open_detached_createdAt_idx');
  });

  it('lists an outbound peer from the agent and peer indexes, not every outbound task (migration 0022)', async () => {
    const { listTaskPage } = await import('../../lib/dashboard/task-list');
    const plans = await plansOf(() => listTaskPage({ limit: 50, direction: 'outbound', agent: 'lab' }));
    expect(plans).toHaveLength(2);
    expect(plans[0].join('\n')).toContain('USING INDEX Task_agentSlug_createdAt_state_idx (agentSlug=?)');
    expect(plans[1].join('\n')).toContain('USING INDEX Task_peerName_createdAt_state_idx (peerName=?)');
  });

  it("reads children and the pruner's held parents from the partial parent indexes (migration 0022)", async () => {
    const { listChildTasks } = await import('../../lib/db/task-graph');
    const children = await plansOf(() => listChildTasks('no-such-parent'));
    expect(children.flat().join('\n')).toContain('USING INDEX Task_parentTaskId_idx (parentTaskId=?)');
    const { TASK_PRUNE } = await import('../../lib/db/task-pruner');
    const conn = new Database(file, { readonly: true });
    try {
      const plan = (conn.prepare(`EXPLAIN QUERY PLAN ${TASK_PRUNE.sqlite}`).all(new Date().toISOString(), 100) as { detail: string }[]).map((r) => r.detail);
      expect(plan.join('\n')).toContain('USING COVERING INDEX Task_state_parentTaskId_idx');
      expect(plan.join('\n')).toContain('USING INDEX Task_endedAt_idx (endedAt<?)');
      expect(plan.filter(wholeRead)).toEqual([]);
    } finally {
      conn.close();
    }
  });

  it("finds a relay's peer task from the parent index, not by walking every outbound task", async () => {
    const { latestOutboundChild } = await import('../../lib/db/task-graph');
    const latest = await plansOf(() => latestOutboundChild('no-such-parent'));
    expect(latest.flat().join('\n')).toContain('Task_parentTaskId_idx (parentTaskId=? AND direction=?)');
    expect(latest.flat().filter(wholeRead)).toEqual([]);
  });

  it("finds a relay's previous peer task in a context from the context index, not by walking the caller's tasks", async () => {
    const { latestChildInContext } = await import('../../lib/db/task-graph');
    const plans = await plansOf(() => latestChildInContext('relay', 'alice', 'no-such-context'));
    expect(plans[0].join('\n')).toContain('USING INDEX Task_contextId_idx (contextId=?)');
    expect(plans.flat().filter(wholeRead)).toEqual([]);
  });

  it('counts a time range from the hourly tallies and its partial hour from covering indexes, per side of the agent filter', async () => {
    const repo = await import('../../lib/db/task-repo');
    const hour = 3_600_000;
    const since = new Date(Math.floor(Date.now() / hour) * hour - 24 * hour + 1); // a partial first hour
    const tallied = (plan: string[]) => plan.join('\n').includes('SEARCH _task_tally_hour USING PRIMARY KEY (hour>?)');
    const plain = await plansOf(() => repo.countTasksByState({ since }));
    expect(plain.filter(tallied)).toHaveLength(1);
    expect(plain.flat().join('\n')).toContain('USING COVERING INDEX Task_createdAt_state_idx (createdAt>? AND createdAt<?)');
    const agent = await plansOf(() => repo.countTasksByState({ since, agentOrPeer: 'echo' }));
    expect(agent).toHaveLength(3);
    expect(agent.filter(tallied)).toHaveLength(1);
    expect(agent.flat().join('\n')).toContain('USING COVERING INDEX Task_agentSlug_createdAt_state_idx');
    expect(agent.flat().join('\n')).toContain('USING COVERING INDEX Task_peerName_createdAt_state_idx');
    expect([...plain, ...agent].flat().filter(wholeRead)).toEqual([]);
  });
});
