/** Inbound API keys made with the real `npm run keys` script, on the database `env` names. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Asynchronous on purpose: a spawnSync froze the test process for longer than the app keeps an
 * idle connection open, and the next request went out on a socket the app had closed.
 */
async function keysScript(env: Record<string, string>, args: string[]): Promise<string> {
  const out = await run(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/keys.ts', ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
  return out.stdout;
}

export interface CreatedKey {
  id: string;
  secret: string;
}

/** Creates a key, then gives it its own quotas with `keys quota <id> name=value …` when any are named. */
export async function createApiKeyRecord(env: Record<string, string>, name: string, quotas: string[] = []): Promise<CreatedKey> {
  const out = await keysScript(env, ['create', name]);
  const key = { id: /\(id ([^)]+)\)/.exec(out)![1], secret: /\b(sb_[A-Za-z0-9_-]+)/.exec(out)![1] };
  if (quotas.length) {
    const answer = await keysScript(env, ['quota', key.id, ...quotas]);
    if (!new RegExp(`^Key ${key.id}: \\{`).test(answer)) throw new Error(`keys quota: unexpected answer ${answer}`);
  }
  return key;
}

/** Creates a key; returns its secret. */
export async function createApiKey(env: Record<string, string>, name: string): Promise<string> {
  return (await createApiKeyRecord(env, name)).secret;
}
