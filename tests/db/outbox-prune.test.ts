/**
 * Finished outbox rows are pruned, on both providers (the `postgresql` Vitest project
 * runs this file again). Push deliveries and notifications delivered, failed or refused before
 * the retention are deleted in bounded batches; rows finished inside it, and pending rows (also
 * one overdue, as a row with an attempt in flight is), stay; a second run, or two at once, delete
 * nothing twice.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from '../support/in-process';
import { testStore } from '../support/postgres';

type Client = typeof import('../../lib/db/client');
type Pruner = typeof import('../../lib/db/outbox-pruner');
let client: Client;
let pruner: Pruner;

const HOUR = 3_600_000;
const now = new Date('2026-06-01T12:00:00.000Z');
const at = (msAgo: number) => new Date(now.getTime() - msAgo).toISOString().replace('Z', '+00:00');

/** One statement with `?` placeholders on whichever store this run tests. */
async function exec(sql: string, values: unknown[]): Promise<void> {
  if (client.store().kind === 'postgresql') {
    let n = 0;
    await client.pgQuery(sql.replace(/\?/g, () => `$${++n}`), values);
  } else client.sqliteTaskWriter().conn.prepare(sql).run(...values);
}

async function ids(table: 'PushDelivery' | 'NotificationDelivery'): Promise<string[]> {
  const column = table === 'PushDelivery' ? '"configId"' : '"id"';
  const sql = `SELECT ${column} AS "id" FROM "${table}" ORDER BY 1`;
  if (client.store().kind === 'postgresql') return (await client.pgQuery<{ id: string }>(sql)).rows.map((r) => r.id);
  return (client.sqliteTaskWriter().conn.prepare(sql).all() as { id: string }[]).map((r) => r.id);
}

/** Rows named by what they are: `<state>-<how long ago it finished or was due>`. */
const ROWS: [state: string, msAgo: number, name: string][] = [
  ['delivered', 2 * HOUR, 'old-delivered-1'],
  ['delivered', 2 * HOUR, 'old-delivered-2'],
  ['failed', 3 * HOUR, 'old-failed'],
  ['delivered', 30 * 24 * HOUR, 'old-delivered-3'],
  ['delivered', 60_000, 'recent-delivered'],
  ['failed', 60_000, 'recent-failed'],
  ['pending', 5 * HOUR, 'overdue-pending'],
  ['pending', -60_000, 'pending'],
];

beforeAll(async () => {
  await freshStore();
  client = await import('../../lib/db/client');
  pruner = await import('../../lib/db/outbox-pruner');
  const repo = await import('../../lib/db/task-repo');
  await client.storeReady();
  await repo.insertTask({ id: 't', contextId: 'ctx-t', direction: 'inbound', agentSlug: 'echo', state: 'submitted', requestText: 'hi' }, [{ type: 'submitted', state: 'submitted', payload: { message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } } }]);
  for (const [state, msAgo, name] of ROWS) {
    await exec('INSERT INTO "PushDelivery" ("taskId","configId","seq","state","owner","nextAttemptAt","createdAt") VALUES (\'t\', ?, 1, ?, \'me\', ?, ?)', [name, state, at(msAgo), at(msAgo)]);
    await exec('INSERT INTO "NotificationDelivery" ("id","taskId","rule","event","seq","url","format","payload","state","owner","nextAttemptAt","createdAt") VALUES (?, \'t\', \'r\', \'task-failed\', 1, \'https://example.com\', \'json\', \'{}\', ?, \'me\', ?, ?)', [
      name,
      state,
      at(msAgo),
      at(msAgo),
    ]);
  }
  await exec('INSERT INTO "NotificationDelivery" ("id","taskId","rule","event","seq","url","format","payload","state","owner","nextAttemptAt","createdAt") VALUES (\'old-refused\', \'t\', \'r\', \'task-failed\', 1, \'https://example.com\', \'json\', \'{}\', \'refused\', \'me\', ?, ?)', [at(HOUR + 1), at(HOUR + 1)]);
});

describe(`pruning finished outbox rows (${testStore()})`, () => {
  it('deletes the rows finished before the retention, in batches, and keeps recent and pending ones', async () => {
    const pruned = await pruner.pruneFinishedOutbox(HOUR, now, 2); // two per statement: several batches
    expect(pruned).toEqual({ PushDelivery: 4, NotificationDelivery: 5 });
    const kept = ['overdue-pending', 'pending', 'recent-delivered', 'recent-failed'];
    expect(await ids('PushDelivery')).toEqual(kept);
    expect(await ids('NotificationDelivery')).toEqual(kept);
  });

  it('deletes nothing twice: again, or two at once', async () => {
    expect(await pruner.pruneFinishedOutbox(HOUR, now)).toEqual({ PushDelivery: 0, NotificationDelivery: 0 });
    const later = new Date(now.getTime() + HOUR); // the recent ones are old now
    const both = await Promise.all([pruner.pruneFinishedOutbox(HOUR, later, 1), pruner.pruneFinishedOutbox(HOUR, later, 1)]);
    expect(both[0].PushDelivery + both[1].PushDelivery).toBe(2);
    expect(both[0].NotificationDelivery + both[1].NotificationDelivery).toBe(2);
    expect(await ids('PushDelivery')).toEqual(['overdue-pending', 'pending']);
    expect(await ids('NotificationDelivery')).toEqual(['overdue-pending', 'pending']);
  });
});
