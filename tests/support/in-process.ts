/**
 * Runs the engine in this test process against a fresh SQLite file: for races and lifecycle
 * checks that need direct access to the terminal claim. Import engine modules only after
 * calling useFreshDatabase(), since settings are read once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function useFreshDatabase(env: Record<string, string> = {}): string {
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
