/**
 * The dashboard's counts and the metrics gauge come from tallies kept by triggers
 * (migration 0019), on both providers (the `postgresql` Vitest project runs this file again).
 * After inserts, state changes, detaching, a detached task ending and pruning, the tallies say
 * what counting the tasks says; on PostgreSQL folding the per-connection rows changes no sum.
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
    await client.store().foldTaskTallies();
    expect(await repo.countTasksByState({})).toEqual(truth);
    if (client.store().kind === 'postgresql') {
      const shards = await query<{ shard: number }>('SELECT DISTINCT "shard" FROM "_task_tally"');
      expect(shards.map((s) => Number(s.shard))).toEqual([0]);
    }
  });
});
