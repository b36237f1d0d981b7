/**
 * Instances that start in the same instant on one fresh PostgreSQL database all come up. Each
 * start migrates (serialised by the migration lock) and then creates the cluster's own tables
 * (`_switchboard_instances`, `_switchboard_turn_leases`): two concurrent `CREATE TABLE IF NOT
 * EXISTS` of one table can fail with 23505 (a unique violation on pg_type), so that creation
 * must be serialised too. Each round is a fresh database; both starts are released together:
 * store bootstraps in this process (the statements of a start, many rounds), and real `next
 * start` processes (fewer rounds: each costs two app starts).
 */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPgMigrations } from '../../lib/db/postgres/migrate';
import { PgLeases } from '../../lib/db/postgres/leases';
import { freshPgDatabase } from '../support/postgres';
import { startApp, type AppServer } from '../support/app-server';

const ROUNDS = 8;
const APP_ROUNDS = 3;
const LEASE_MS = 5_000;

let pools: pg.Pool[] = [];
let apps: AppServer[] = [];
afterEach(async () => {
  await Promise.all([...pools.map((p) => p.end()), ...apps.map((a) => a.kill())]);
  pools = [];
  apps = [];
});

/** What a store's start does on the database before serving: migrate, create the lease tables, take its instance row. */
async function startInstance(url: string, id: string, release: Promise<void>): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pools.push(pool);
  await pool.query('SELECT 1'); // connected before the start line, so both starts leave it together
  await release;
  await applyPgMigrations(pool);
  const leases = new PgLeases(pool, id, LEASE_MS);
  await leases.createTables();
  await leases.renew();
}

describe('instances starting at once on one fresh database', () => {
  it(`both come up, ${ROUNDS} rounds of two`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const url = await freshPgDatabase();
      let go!: () => void;
      const release = new Promise<void>((resolve) => (go = resolve));
      const starts = Promise.allSettled(['a', 'b'].map((id) => startInstance(url, id, release)));
      go();
      const failures = (await starts).filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason));
      expect(failures, `round ${round}`).toEqual([]);
      const { rows } = await pools[0].query<{ id: string }>('SELECT "id" FROM "_switchboard_instances" ORDER BY "id"');
      expect(rows.map((r) => r.id)).toEqual(['a', 'b']);
      await Promise.all(pools.map((p) => p.end()));
      pools = [];
    }
  });
});

describe('two app processes starting at once on one fresh database', () => {
  it(`both serve, ${APP_ROUNDS} rounds`, async () => {
    for (let round = 0; round < APP_ROUNDS; round++) {
      const DATABASE_URL = await freshPgDatabase();
      const starts = await Promise.allSettled(['a', 'b'].map((id) => startApp({ DATABASE_URL, SWITCHBOARD_INSTANCE_ID: `${id}${round}` })));
      for (const s of starts) if (s.status === 'fulfilled') apps.push(s.value);
      expect(starts.map((s) => (s.status === 'rejected' ? String(s.reason) : 'up')), `round ${round}`).toEqual(['up', 'up']);
      for (const app of apps) expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
      await Promise.all(apps.map((a) => a.kill()));
      apps = [];
    }
  }, 240_000);
});
