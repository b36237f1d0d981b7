/**
 * What two instances share on one PostgreSQL database beyond the task log: a new context is
 * claimed by one owner even when two instances' writers race for it (the advisory lock in
 * pg-writer.ts), and a due notification is taken by one instance only (notification-repo.ts).
 * Two stores in one process stand for two instances: each has its own pool and writer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from '../support/in-process';
import type { PgStore } from '../../lib/db/pg-store';

let stores: PgStore[] = [];

beforeAll(async () => {
  await freshStore();
  const { createPgStore } = await import('../../lib/db/pg-store');
  stores = [createPgStore(process.env.DATABASE_URL!), createPgStore(process.env.DATABASE_URL!)];
  await Promise.all(stores.map((s) => s.ready));
});

afterAll(async () => {
  await Promise.all(stores.map((s) => s.pool.end()));
});

const joining = (id: string, contextId: string, owner: string) => ({ id, contextId, direction: 'inbound' as const, agentSlug: 'echo', owner, ownerName: owner, joinsContext: true, state: 'submitted' as const, requestText: 'hi' });
const request = { kind: 'message' as const, messageId: 'first', role: 'user' as const, parts: [{ kind: 'text' as const, text: 'first' }] };
const submitted = { type: 'submitted' as const, state: 'submitted' as const, payload: { message: request } };

describe('two instances on one database', () => {
  it('of two instances racing to claim a new context, exactly one owner gets it', async () => {
    const { isContextTaken } = await import('../../lib/db/task-records');
    for (let round = 0; round < 20; round++) {
      const contextId = `race-${round}`;
      const results = await Promise.allSettled(stores.map((s, i) => s.writer.queueInsertTask(joining(`${contextId}-${i}`, contextId, `owner-${i}`), [submitted], [])));
      expect(results.filter((r) => r.status === 'fulfilled'), contextId).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(isContextTaken(r.reason)).toBe(true);
      const { rows } = await stores[0].pool.query('SELECT DISTINCT "owner" FROM "Task" WHERE "contextId" = $1', [contextId]);
      expect(rows).toHaveLength(1);
    }
  });

  it('a due delivery is taken by one instance; the other sees it again only after the claim lapses', async () => {
    const repo = await import('../../lib/db/notification-repo');
    await stores[0].writer.queueInsertTask({ ...joining('notified', 'ctx-n', 'o'), joinsContext: false }, [submitted], []);
    const now = new Date();
    await repo.enqueueDelivery({ id: 'd1', taskId: 'notified', rule: 'ops', event: 'task-failed', seq: 1, url: 'https://example.com/h', format: 'json', payload: '{}' }, now);
    const taken = await Promise.all([repo.dueDeliveries(now), repo.dueDeliveries(now)]);
    expect(taken.map((list) => list.map((d) => d.id)).flat()).toEqual(['d1']);
    expect(await repo.dueDeliveries(now)).toEqual([]);
    expect((await repo.dueDeliveries(new Date(now.getTime() + 61_000))).map((d) => d.id)).toEqual(['d1']);
  });
});
