/** Creates an inbound API key with the real `npm run keys` script, on the database `env` names; returns its secret. */
import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';

export function createApiKey(env: Record<string, string>, name: string): string {
  const out = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/keys.ts', 'create', name], { env: { ...process.env, ...env }, encoding: 'utf8' });
  expect(out.status, out.stderr).toBe(0);
  return /\b(sb_[A-Za-z0-9_-]+)/.exec(out.stdout)![1];
}
