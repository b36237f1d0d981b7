/**
 * `ApiKey.lastUsedAt` is written when a key authenticates (at most once a minute
 * per key) and `npm run keys -- list` shows it.
 */
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFreshDatabase } from '../support/in-process';
import { waitFor } from '../support/a2a-clients';

let keys: typeof import('../../lib/auth/api-keys');
let repo: typeof import('../../lib/db/key-repo');

beforeAll(async () => {
  useFreshDatabase();
  keys = await import('../../lib/auth/api-keys');
  repo = await import('../../lib/db/key-repo');
});

const keysCli = (...args: string[]) => spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/keys.ts', ...args], { env: process.env, encoding: 'utf8' });

describe('ApiKey.lastUsedAt', () => {
  it('is written when the key authenticates, and shown by npm run keys -- list', async () => {
    const { key, record } = await keys.createApiKey('reporter');
    expect(keysCli('list').stdout).toContain(`${record.id}  reporter  created ${record.createdAt}  last used never`);
    const auth = await keys.authenticateInbound(new Request('http://127.0.0.1/a2a/echo', { headers: { Authorization: `Bearer ${key}` } }), 'echo');
    expect(auth).toMatchObject({ ok: true, caller: 'reporter' });
    const used = await waitFor(async () => (await repo.listApiKeys()).find((k) => k.id === record.id && k.lastUsedAt)?.lastUsedAt);
    const listed = keysCli('list');
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`${record.id}  reporter  created ${record.createdAt}  last used ${used}`);
  });

  it('is written at most once a minute per key', () => {
    const written = new Map<string, number>();
    expect(keys.shouldRecordUse('k1', 1_000_000, written)).toBe(true);
    expect(keys.shouldRecordUse('k1', 1_000_000 + keys.LAST_USED_WRITE_MS - 1, written)).toBe(false);
    expect(keys.shouldRecordUse('k2', 1_000_001, written)).toBe(true);
    expect(keys.shouldRecordUse('k1', 1_000_000 + keys.LAST_USED_WRITE_MS, written)).toBe(true);
  });
});
