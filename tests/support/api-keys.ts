/** Inbound API keys made with the real `npm run keys` script, on the database `env` names. */
import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';

function keysScript(env: Record<string, string>, args: string[]): string {
  const out = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/keys.ts', ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
  expect(out.status, out.stderr).toBe(0);
  return out.stdout;
}

export interface CreatedKey {
  id: string;
  secret: string;
}

/** Creates a key, then gives it its own quotas with `keys quota <id> name=value …` when any are named. */
export function createApiKeyRecord(env: Record<string, string>, name: string, quotas: string[] = []): CreatedKey {
  const out = keysScript(env, ['create', name]);
  const key = { id: /\(id ([^)]+)\)/.exec(out)![1], secret: /\b(sb_[A-Za-z0-9_-]+)/.exec(out)![1] };
  if (quotas.length) expect(keysScript(env, ['quota', key.id, ...quotas])).toMatch(new RegExp(`^Key ${key.id}: \\{`));
  return key;
}

/** Creates a key; returns its secret. */
export function createApiKey(env: Record<string, string>, name: string): string {
  return createApiKeyRecord(env, name).secret;
}
