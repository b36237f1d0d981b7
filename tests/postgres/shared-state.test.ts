/**
 * What two instances share on one PostgreSQL database beyond the task log: a new context is
 * claimed by one owner even when two instances' writers race for it (the advisory lock in
 * postgres/writer.ts), and a notification belongs to one instance, taken over once its owner is gone
 * (the store's notification outbox, postgres/leases.ts).
 * Two stores in one process stand for two instances: each has its own pool and writer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from '../support/in-process';
import type { PgStore } from '../../lib/db/postgres/store';

let stores: PgStore[] = [];

beforeAll(async () => {
  await freshStore();
  const { createPostgresStore } = await import('../../lib/db/postgres/store');
  stores = [createPostgresStore(process.env.DATABASE_URL!), createPostgresStore(process.env.DATABASE_URL!)];
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

  it('a notification is due only for its owner; survivors take it over only once its owner\'s lease row is gone, and one of them wins', async () => {
    const outbox = (await import('../../lib/db/store')).store().notifications;
    const { PgLeases } = await import('../../lib/db/postgres/leases');
    await stores[0].writer.queueInsertTask({ ...joining('notified', 'ctx-n', 'o'), joinsContext: false }, [submitted], []);
    const now = new Date();
    await outbox.enqueue({ id: 'd1', taskId: 'notified', rule: 'ops', event: 'task-failed', seq: 1, url: 'https://example.com/h', format: 'json', payload: '{}', owner: 'a' }, now);
    const [a, b, c] = ['a', 'b', 'c'].map((id, i) => new PgLeases(stores[i % 2].pool, id, 60_000));
    await a.createTables();
    await Promise.all([a.renew(), b.renew(), c.renew()]);
    expect((await outbox.due('a', now, 20)).map((d) => d.id)).toEqual(['d1']);
    expect(await outbox.due('b', now, 20)).toEqual([]);
    expect(await outbox.nextDue('b')).toBeNull();
    // A live owner's row is never taken.
    expect(await b.takeOverOutboxRows()).toEqual({ PushDelivery: 0, NotificationDelivery: 0 });
    // Only the owner records an outcome or starts an attempt.
    expect(await outbox.startAttempt('d1', 'b', now)).toBeNull();
    expect(await outbox.startAttempt('d1', 'a', now)).toBe(1);
    await a.retire('sb_test_released');
    const taken = await Promise.all([b.takeOverOutboxRows(), c.takeOverOutboxRows()]);
    expect(taken.map((t) => t.NotificationDelivery).sort()).toEqual([0, 1]);
    const winner = taken[0].NotificationDelivery ? 'b' : 'c';
    const [row] = await outbox.due(winner, now, 20);
    expect(row).toMatchObject({ id: 'd1', attempts: 1, attemptStartedAt: expect.any(String) }); // in flight when its owner left
    expect(await outbox.recordAttempt('d1', 'a', { state: 'delivered', attemptLog: [], nextAttemptAt: now, lastError: null, deliveredAt: now })).toBe(false);
    expect((await b.heldOutboxRows()).NotificationDelivery.pending + (await c.heldOutboxRows()).NotificationDelivery.pending).toBe(1);
  });
});
