/**
 * The PostgreSQL group commit's second round trip: the statements a batch causes (outbox rows,
 * its NOTIFY) go out with COMMIT. They commit with the batch, a NOTIFY arrives only once the rows
 * are visible, and a failing one rolls the batch back, after which each write commits or fails
 * on its own (postgres/write-queue.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { freshStore } from '../support/in-process';
import { createPgPool } from '../../lib/db/postgres/pool';
import { PgWriteQueue, WRITES_PER_TURN } from '../../lib/db/postgres/write-queue';
import { DEFAULT_PER_SLICE } from '../../lib/util/turn-slices';
import { probe } from '../support/loop-probe';

let url = '';
let pool: pg.Pool;

beforeAll(async () => {
  await freshStore();
  url = process.env.DATABASE_URL!;
  pool = createPgPool(url, 1, { pipeline: true });
  await pool.query('CREATE TABLE IF NOT EXISTS "wq_rows" ("id" TEXT PRIMARY KEY, "why" TEXT NOT NULL)');
});

afterAll(async () => {
  await pool.end();
});

const insert = (id: string, why: string) => (client: pg.PoolClient) => client.query('INSERT INTO "wq_rows" VALUES ($1, $2)', [id, why]).then(() => id);
const ids = async (why: string) => (await pool.query<{ id: string }>('SELECT "id" FROM "wq_rows" WHERE "why" = $1 ORDER BY "id"', [why])).rows.map((r) => r.id);

describe('PgWriteQueue: statements sent with COMMIT', () => {
  it('commits them with the batch; its NOTIFY is delivered once the rows are visible', async () => {
    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    await listener.query('LISTEN wq_test');
    const seen: string[][] = [];
    const delivered = new Promise<void>((resolve) =>
      listener.on('notification', (msg) => {
        void pool.query<{ id: string }>('SELECT "id" FROM "wq_rows" WHERE "why" = $1 ORDER BY "id"', ['notify']).then((r) => {
          seen.push([msg.payload ?? '', ...r.rows.map((row) => row.id)]);
          resolve();
        });
      }),
    );
    const queue = new PgWriteQueue(pool, Promise.resolve(), {
      withCommit: (values) => [
        { text: 'INSERT INTO "wq_rows" SELECT x || \'-caused\', $2 FROM unnest($1::text[]) AS x', values: [values, 'notify'] },
        { text: 'SELECT pg_notify($1, $2)', values: ['wq_test', (values as string[]).join(',')] },
      ],
    });
    const written = await Promise.all(['n1', 'n2', 'n3'].map((id) => queue.enqueue(insert(id, 'notify'), [id])));
    expect(written).toEqual(['n1', 'n2', 'n3']);
    await delivered;
    await listener.end();
    expect(seen[0]).toEqual(['n1,n2,n3', 'n1', 'n1-caused', 'n2', 'n2-caused', 'n3', 'n3-caused']);
  });

  it('a failing caused statement rolls the batch back; then each write commits or fails alone', async () => {
    let batches = 0;
    const queue = new PgWriteQueue(pool, Promise.resolve(), {
      // Fails for any batch holding "bad": the batch of three, then "bad" alone.
      withCommit: (values) => {
        batches++;
        return [{ text: 'SELECT 1 / (CASE WHEN $1::text[] @> ARRAY[\'bad\'] THEN 0 ELSE 1 END)', values: [values] }];
      },
    });
    const results = await Promise.allSettled(['good1', 'bad', 'good2'].map((id) => queue.enqueue(insert(id, 'fail'), [id])));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/division by zero/);
    expect(await ids('fail')).toEqual(['good1', 'good2']);
    expect(batches).toBe(4); // the batch, then each write on its own
  });
});

describe('PgWriteQueue: bounded work per turn', () => {
  it(`sends a batch's statements ${WRITES_PER_TURN} a turn and settles its writes ${DEFAULT_PER_SLICE} a turn, in order, reading sockets in between`, async () => {
    const total = 400;
    let started = 0;
    const settled: number[] = [];
    const sending = await probe(() => started);
    const settling = await probe(() => settled.length);
    const queue = new PgWriteQueue(pool, Promise.resolve());
    const writes = Array.from({ length: total }, (_, i) =>
      queue
        .enqueue((client) => {
          if (started++ === 0) sending.poke();
          return client.query('INSERT INTO "wq_rows" VALUES ($1, $2)', [`s${String(i).padStart(3, '0')}`, 'sliced']).then(() => i);
        }, [`s${i}`])
        .then((i) => {
          if (settled.push(i) === 1) settling.poke();
        }),
    );
    await Promise.all(writes);
    const [startedWhenRead, settledWhenRead] = [await sending.seen, await settling.seen];
    sending.close();
    settling.close();
    expect(settled).toEqual(Array.from({ length: total }, (_, i) => i));
    expect(await ids('sliced')).toHaveLength(total);
    // One batch (all queued in one turn), whose statements went out over several turns and whose
    // writes settled over several: the probes' bytes were read before either end was done.
    expect(startedWhenRead).toBeGreaterThanOrEqual(1);
    expect(startedWhenRead).toBeLessThan(total);
    expect(settledWhenRead).toBeGreaterThanOrEqual(1);
    expect(settledWhenRead).toBeLessThan(total);
  });
});
