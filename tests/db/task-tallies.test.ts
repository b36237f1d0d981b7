/**
 * The dashboard's counts and the metrics gauge come from tallies kept by triggers
 * (migration 0019), on both providers (the `postgresql` Vitest project runs this file again).
 * After inserts, state changes, detaching, a detached task ending and pruning, the tallies say
 * what counting the tasks says; on PostgreSQL folding the per-connection rows changes no sum.
 * The counts over a time range (hourly tallies, migration 0021, plus the range's partial hours
 * counted from the tasks) say what counting the tasks in the range says, after random changes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from '../support/in-process';
import { testStore } from '../support/postgres';
import type { TaskState } from '../../lib/protocol/types';
import { toStateCounts } from '../../lib/db/state-counts';

type Client = typeof import('../../lib/db/client');
type Repo = typeof import('../../lib/db/task-repo');
let client: Client;
let repo: Repo;
let tallies: typeof import('../../lib/db/task-tallies');

const HOUR = 3_600_000;

async function query<R>(sql: string): Promise<R[]> {
  if (client.store().kind === 'postgresql') return (await client.pgQuery(sql)).rows as R[];
  return client.sqliteTaskWriter().conn.prepare(sql).all() as R[];
}

/** The truth: the tasks themselves, grouped. */
async function countedFromTasks(where = '1 = 1'): Promise<Record<string, { total: number; detached: number }>> {
  const rows = await query<{ state: string; detached: unknown; n: unknown }>(`SELECT "state", "detached", COUNT(*) AS "n" FROM "Task" WHERE ${where} GROUP BY "state", "detached"`);
  return toStateCounts(rows);
}

const request = (text: string) => ({ kind: 'message' as const, messageId: crypto.randomUUID(), role: 'user' as const, parts: [{ kind: 'text' as const, text }] });

let serial = 0;
async function task(opts: { state: TaskState; agent?: string; peer?: string; detached?: boolean; endedAgo?: number }): Promise<string> {
  const id = `t${++serial}`;
  const outbound = Boolean(opts.peer);
  await repo.insertTask(
    outbound
      ? { id, contextId: `c-${id}`, direction: 'outbound', peerName: opts.peer, peerUrl: 'http://127.0.0.1:9/a2a/x', state: 'submitted', requestText: id }
      : { id, contextId: `c-${id}`, direction: 'inbound', agentSlug: opts.agent ?? 'echo', state: 'submitted', requestText: id },
    [{ type: 'submitted', state: 'submitted', payload: { message: request(id) } }],
  );
  if (opts.state === 'submitted') return id;
  await repo.appendEvents(id, [{ type: 'status', state: 'working', payload: {} }], { patch: { state: 'working' } });
  if (opts.detached) await repo.appendEvents(id, [{ type: 'detached', state: 'working', payload: { reason: 'response window ended' } }], { patch: { detached: true, detachedAt: new Date() } });
  if (opts.state === 'working') return id;
  await repo.appendEvents(id, [{ type: 'status', state: opts.state, payload: {} }], {
    onlyIfNotTerminal: true,
    patch: { state: opts.state, endedAt: new Date(Date.now() - (opts.endedAgo ?? 0)) },
  });
  return id;
}

beforeAll(async () => {
  await freshStore();
  client = await import('../../lib/db/client');
  repo = await import('../../lib/db/task-repo');
  tallies = await import('../../lib/db/task-tallies');
  await client.storeReady();
  await task({ state: 'submitted' });
  await task({ state: 'working', agent: 'slow' });
  await task({ state: 'working', agent: 'slow', detached: true });
  await task({ state: 'completed', agent: 'slow', detached: true }); // detached, then ended
  await task({ state: 'input-required', agent: 'ask' });
  await task({ state: 'completed', endedAgo: 2 * HOUR });
  await task({ state: 'failed', endedAgo: 2 * HOUR });
  await task({ state: 'completed' });
  await task({ state: 'working', peer: 'lab' });
  await task({ state: 'canceled', peer: 'lab', endedAgo: 2 * HOUR });
  await task({ state: 'completed', peer: 'slow' }); // a peer named like an agent: the agent filter matches both
});

describe(`task tallies (${testStore()})`, () => {
  it('count what the tasks say, per filter the tallies answer', async () => {
    expect(await repo.countTasksByState({})).toEqual(await countedFromTasks());
    expect(await repo.countTasksByState({ direction: 'outbound' })).toEqual(await countedFromTasks('"direction" = \'outbound\''));
    expect(await repo.countTasksByState({ agentOrPeer: 'slow' })).toEqual(await countedFromTasks('("agentSlug" = \'slow\' OR "peerName" = \'slow\')'));
    expect(await repo.countTasksByState({ direction: 'inbound', agentOrPeer: 'slow' })).toEqual(await countedFromTasks('"direction" = \'inbound\' AND "agentSlug" = \'slow\''));
    expect((await repo.countTasksByState({})).completed).toEqual({ total: 4, detached: 1 });
    const gauge = await tallies.tallyTasksByState();
    expect(gauge.find((t) => t.state === 'completed' && t.direction === 'inbound')?.count).toBe(3);
  });

  it('shows a detached open task under detached and a detached task that ended under its end state', async () => {
    const { taskCounts } = await import('../../lib/dashboard/task-list');
    const shown = await taskCounts({ agent: 'slow' });
    expect(shown.counts).toMatchObject({ working: 1, detached: 1, completed: 2 });
    expect(shown.total).toBe(4);
  });

  it('follow deletes (pruning) and, on PostgreSQL, folding changes no sum and leaves one row per key', async () => {
    const { pruneFinishedTasks } = await import('../../lib/db/task-pruner');
    expect(await pruneFinishedTasks(HOUR)).toBe(3);
    const truth = await countedFromTasks();
    expect(truth.canceled).toBeUndefined();
    expect(await repo.countTasksByState({})).toEqual(truth);
    await client.store().foldTaskTallies(10_000);
    expect(await repo.countTasksByState({})).toEqual(truth);
    if (client.store().kind === 'postgresql') {
      const shards = await query<{ shard: number }>('SELECT DISTINCT "shard" FROM "_task_tally"');
      expect(shards.map((s) => Number(s.shard))).toEqual([0]);
    }
  });

  it('count a time range exactly from the hourly tallies, after random changes, on any hour boundary', async () => {
    const random = rng(28);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
    const now = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < 120; i++) {
      const outbound = random() < 0.3;
      const id = await task({ state: 'submitted', ...(outbound ? { peer: pick(['lab', 'slow']) } : { agent: pick(['echo', 'slow', 'ask']) }) });
      // Created at any time in the last ten days (and one hour ahead): moves its tally to that hour.
      await client.db().task.update({ where: { id }, data: { createdAt: new Date(now - Math.floor(random() * 241 * HOUR) + HOUR) } });
      ids.push(id);
    }
    for (let step = 0; step < 300; step++) {
      const id = pick(ids);
      const roll = random();
      if (roll < 0.3) await repo.appendEvents(id, [{ type: 'status', state: 'working', payload: {} }], { onlyIfStateIn: ['submitted', 'input-required'], patch: { state: 'working' } });
      else if (roll < 0.45) await repo.appendEvents(id, [{ type: 'status', state: 'input-required', payload: {} }], { onlyIfStateIn: ['working'], patch: { state: 'input-required' } });
      else if (roll < 0.6) await repo.appendEvents(id, [{ type: 'detached', state: 'working', payload: { reason: 'response window ended' } }], { onlyIfNotDetached: true, onlyIfStateIn: ['working'], patch: { detached: true, detachedAt: new Date() } });
      else if (roll < 0.8) {
        const end = pick(['completed', 'failed', 'canceled'] as const);
        await repo.appendEvents(id, [{ type: 'status', state: end, payload: {} }], { onlyIfNotTerminal: true, patch: { state: end, endedAt: new Date(now - Math.floor(random() * 3 * HOUR)) } });
      } else if (roll < 0.9) await client.db().task.update({ where: { id }, data: { createdAt: new Date(now - Math.floor(random() * 241 * HOUR)) } });
    }
    await pruneFinished(2 * HOUR); // deletes some of them: the tallies follow
    const hourAligned = Math.floor(now / HOUR) * HOUR;
    const ranges: { since: Date; until?: Date }[] = [
      { since: new Date(now - 15 * 60_000) },
      { since: new Date(now - HOUR) },
      { since: new Date(now - 24 * HOUR) },
      { since: new Date(now - 7 * 24 * HOUR) },
      { since: new Date(hourAligned - 5 * HOUR) }, // no partial first hour
      { since: new Date(hourAligned - 5 * HOUR + 1) }, // a partial first hour of 1 ms short of whole
      { since: new Date(now - 100 * HOUR), until: new Date(now - 30 * HOUR) }, // partial hours both ends
      { since: new Date(now - 100 * HOUR), until: new Date(hourAligned - 30 * HOUR - 1) }, // whole last hour
      { since: new Date(now - 3 * HOUR), until: new Date(now - 3 * HOUR + 60_000) }, // inside one hour
    ];
    const tasks = await allTasks();
    const check = async () => {
      for (const r of ranges) {
        for (const filter of [{}, { direction: 'outbound' as const }, { agentOrPeer: 'slow' }, { direction: 'inbound' as const, agentOrPeer: 'echo' }]) {
          const expected = countIn(tasks, (t) => t.createdAt >= r.since.getTime() && (!r.until || t.createdAt <= r.until.getTime())
            && (!filter.direction || t.direction === filter.direction) && (!filter.agentOrPeer || t.agentSlug === filter.agentOrPeer || t.peerName === filter.agentOrPeer));
          expect(await repo.countTasksByState({ ...filter, ...r }), JSON.stringify({ ...filter, ...r })).toEqual(expected);
        }
      }
      // And every hour's tally rows, summed, are that hour's tasks.
      const perHour = await query<{ hour: unknown; n: unknown }>('SELECT "hour", SUM("count") AS "n" FROM "_task_tally_hour" GROUP BY "hour" HAVING SUM("count") <> 0 ORDER BY "hour"');
      const truth = new Map<number, number>();
      for (const t of tasks) truth.set(Math.floor(t.createdAt / HOUR), (truth.get(Math.floor(t.createdAt / HOUR)) ?? 0) + 1);
      expect(new Map(perHour.map((h) => [Number(h.hour), Number(h.n)]))).toEqual(truth);
    };
    await check();
    const empty = async () => Number((await query<{ n: unknown }>('SELECT COUNT(*) AS "n" FROM "_task_tally_hour" WHERE "count" = 0'))[0].n);
    expect(await empty()).toBeGreaterThan(1); // tasks that moved on, or were pruned, left rows at zero
    await client.store().foldTaskTallies(1); // a batch at a time
    const left = await empty();
    await client.store().foldTaskTallies(10_000);
    expect(await empty()).toBe(0);
    expect(left).toBeGreaterThan(0);
    await check();
    if (client.store().kind === 'postgresql') {
      const shards = await query<{ shard: number }>('SELECT DISTINCT "shard" FROM "_task_tally_hour"');
      expect(shards.map((s) => Number(s.shard))).toEqual([0]);
    }
  });
});

/** A small deterministic generator: the same "random" changes on every run and store. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

async function pruneFinished(olderThanMs: number): Promise<void> {
  const { pruneFinishedTasks } = await import('../../lib/db/task-pruner');
  await pruneFinishedTasks(olderThanMs);
}

type Row = { createdAt: number; state: string; detached: boolean; direction: string; agentSlug: string | null; peerName: string | null };

/** Every task, read with Prisma (the same on both stores). */
async function allTasks(): Promise<Row[]> {
  const rows = await client.db().task.findMany({ select: { createdAt: true, state: true, detached: true, direction: true, agentSlug: true, peerName: true } });
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.getTime() }));
}

function countIn(tasks: Row[], match: (t: Row) => boolean): Record<string, { total: number; detached: number }> {
  return toStateCounts(tasks.filter(match).map((t) => ({ state: t.state, detached: t.detached, n: 1 })));
}
