/**
 * Global setup of the `postgresql` Vitest project: one PostgreSQL server for the whole run.
 * SWITCHBOARD_TEST_PG_URL (an admin URL of an existing server) is used as it is; otherwise an
 * embedded server starts (embedded-postgres.ts, ~0.5 s) and is removed after the run.
 */
import { startEmbeddedPostgres } from './embedded-postgres';
import { PG_ADMIN_URL_ENV } from './postgres';

export default async function setup(): Promise<() => Promise<void>> {
  const existing = process.env.SWITCHBOARD_TEST_PG_URL;
  if (existing) {
    process.env[PG_ADMIN_URL_ENV] = existing;
    return async () => undefined;
  }
  const server = await startEmbeddedPostgres();
  process.env[PG_ADMIN_URL_ENV] = server.url;
  return () => server.stop();
}
