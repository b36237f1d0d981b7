/**
 * Runs the engine in this test process against a fresh database: for races and lifecycle
 * checks that need direct access to the terminal claim. Import engine modules only after
 * calling useFreshDatabase() / freshStore(), since settings are read once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEST_CLUSTER_SECRET_KEY } from './app-server';
import { freshPgDatabase, testStore } from './postgres';

function freshSqliteFile(env: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-engine-'));
  process.env.DATABASE_URL = `file:${path.join(dir, 'test.db')}`;
  process.env.SWITCHBOARD_LOG_LEVEL = 'error';
  Object.assign(process.env, env);
  return dir;
}

/** sendMessage's answer where the agent cannot reply with a direct message: always a Task. */
export function onlyTask<T extends { kind: string }>(answer: T): Extract<T, { kind: 'task' }> {
  if (answer.kind !== 'task') throw new Error(`expected a task, got a ${answer.kind}`);
  return answer as Extract<T, { kind: 'task' }>;
}

/** A fresh SQLite file (for SQLite-only tests); returns its directory. */
export function useFreshDatabase(env: Record<string, string> = {}): string {
  return freshSqliteFile(env);
}

/**
 * A fresh database of the provider this run tests: a SQLite file, or in the `postgresql`
 * Vitest project a new PostgreSQL database. Tests that use it run on both providers.
 */
export async function freshStore(env: Record<string, string> = {}): Promise<string> {
  const dir = freshSqliteFile(env);
  if (testStore() === 'postgresql') {
    const url = await freshPgDatabase();
    process.env.DATABASE_URL = url;
    // Else stored secrets are sealed with ./data/secret.key, one file for every test file at once.
    process.env.SWITCHBOARD_SECRET_KEY = env.SWITCHBOARD_SECRET_KEY ?? TEST_CLUSTER_SECRET_KEY;
  }
  return dir;
}

/**
 * One statement with `?` placeholders on whichever store the fresh store is (after freshStore()):
 * what a test checks at rest, beside what the repositories return.
 */
export async function storeQuery<R>(sql: string, values: unknown[] = []): Promise<R[]> {
  const client = await import('../../lib/db/client');
  if (client.store().kind === 'postgresql') {
    let n = 0;
    return (await client.pgQuery(sql.replace(/\?/g, () => `$${++n}`), values)).rows as R[];
  }
  const stmt = client.sqliteTaskWriter().conn.prepare(sql);
  return (stmt.reader ? stmt.all(...values) : (stmt.run(...values), [])) as R[];
}
