/**
 * Two instances on one PostgreSQL database spend one caller's quotas together. The
 * request counter and the stored-bytes counter are rows of "QuotaCounter" (rate-limiter-flexible's
 * PostgreSQL store), and open tasks are counted from the task table, so what a caller spent on
 * one instance is refused on the other; a per-instance count would let each call below through.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { createApiKey, createApiKeyRecord } from '../support/api-keys';
import { rpc } from '../support/a2a-clients';
import { freshPgDatabase } from '../support/postgres';

let a: AppServer;
let b: AppServer;
let databaseUrl: string;
let alice: string;
let writer: string;
let opener: string;

beforeAll(async () => {
  databaseUrl = await freshPgDatabase();
  // The keys script migrates the fresh database before either instance starts.
  alice = await createApiKey({ DATABASE_URL: databaseUrl }, 'alice');
  // Their requests are not limited, so each test's second request needs no wait.
  writer = (await createApiKeyRecord({ DATABASE_URL: databaseUrl }, 'writer', ['requestsPerSecond=0'])).secret;
  opener = (await createApiKeyRecord({ DATABASE_URL: databaseUrl }, 'opener', ['requestsPerSecond=0'])).secret;
  const env = {
    DATABASE_URL: databaseUrl,
    SWITCHBOARD_MAX_REQUESTS_PER_SECOND_PER_CALLER: '1',
    SWITCHBOARD_MAX_STORED_BYTES_PER_CALLER: '20000',
    SWITCHBOARD_MAX_OPEN_TASKS_PER_CALLER: '1',
  };
  // One after the other, as tests/postgres/instances.test.ts starts them.
  a = await startApp({ ...env, SWITCHBOARD_INSTANCE_ID: 'a' });
  b = await startApp({ ...env, SWITCHBOARD_INSTANCE_ID: 'b' });
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

const as = (key: string) => ({ Authorization: `Bearer ${key}` });
const message = (text: string, blocking: boolean) => ({ message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }] }, configuration: { blocking } });

async function counterRows(): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<{ key: string }>('SELECT key FROM "QuotaCounter" ORDER BY key')).rows.map((r) => r.key);
  } finally {
    await client.end();
  }
}

describe('quotas shared by two instances on one database', () => {
  it("a request on one instance spends the caller's second on the other", async () => {
    // The window starts at A's call and lasts a second; B's call follows at once.
    const first = await rpc(`${a.url}/a2a/echo`, 'tasks/get', { id: 'no-such-task' }, as(alice));
    const second = await rpc(`${b.url}/a2a/echo`, 'tasks/get', { id: 'no-such-task' }, as(alice));
    expect(first.body.error.code).toBe(-32001);
    expect(second.body.error).toMatchObject({ code: -32029 });
    expect(second.headers.get('retry-after')).toBe('1');
    expect((await counterRows()).some((key) => key.startsWith('requests:'))).toBe(true);
  });

  it('bytes stored through one instance are counted on the other', async () => {
    const big = 'x'.repeat(12_000);
    const stored = await rpc(`${a.url}/a2a/echo`, 'message/send', message(big, true), as(writer));
    expect(stored.body.result?.status?.state, stored.text).toBe('completed');
    const refused = await rpc(`${b.url}/a2a/echo`, 'message/send', message('small', true), as(writer));
    expect(refused.body.error).toMatchObject({ code: -32029 });
    expect(refused.body.error.message).toMatch(/SWITCHBOARD_MAX_STORED_BYTES_PER_CALLER/);
  });

  it('an open task on one instance counts on the other', async () => {
    const open = await rpc(`${a.url}/a2a/slow`, 'message/send', message('work 60s', false), as(opener));
    expect(open.body.result?.id, open.text).toBeTruthy();
    const refused = await rpc(`${b.url}/a2a/slow`, 'message/send', message('work 60s', false), as(opener));
    expect(refused.body.error).toMatchObject({ code: -32029 });
    expect(refused.body.error.message).toMatch(/SWITCHBOARD_MAX_OPEN_TASKS_PER_CALLER/);
    await rpc(`${a.url}/a2a/slow`, 'tasks/cancel', { id: open.body.result.id }, as(opener));
  });
});
