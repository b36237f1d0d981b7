/**
 * Notification rows written before decision 179 kept the rule's full webhook URL (a
 * Slack-style webhook's token is its path). The start-up step cuts every such row to its origin,
 * on both providers; rows already holding an origin are left alone, and a second run changes
 * nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from '../support/in-process';

type Client = typeof import('../../lib/db/client');
type Repo = typeof import('../../lib/db/notification-repo');
let client: Client;
let repo: Repo;

const ROWS: [id: string, url: string, origin: string][] = [
  ['slack', 'https://hooks.slack.example/services/T000/B000/XXXXSECRETXXXX', 'https://hooks.slack.example'],
  ['query', 'https://alerts.example:8443?token=query-secret', 'https://alerts.example:8443'],
  ['userinfo', 'http://user:pass-secret@10.0.0.5:9000', 'http://10.0.0.5:9000'],
  ['fragment', 'https://frag.example#frag-secret', 'https://frag.example'],
  ['ipv6', 'http://[::1]:8080/hook/ipv6-secret', 'http://[::1]:8080'],
  ['current', 'https://already.example', 'https://already.example'],
];

async function exec(sql: string, values: unknown[]): Promise<void> {
  if (client.store().kind === 'postgresql') {
    let n = 0;
    await client.pgQuery(sql.replace(/\?/g, () => `$${++n}`), values);
  } else client.sqliteTaskWriter().conn.prepare(sql).run(...values);
}

async function storedUrls(): Promise<Record<string, string>> {
  const sql = 'SELECT "id", "url" FROM "NotificationDelivery" ORDER BY 1';
  const rows = client.store().kind === 'postgresql' ? (await client.pgQuery<{ id: string; url: string }>(sql)).rows : (client.sqliteTaskWriter().conn.prepare(sql).all() as { id: string; url: string }[]);
  return Object.fromEntries(rows.map((r) => [r.id, r.url]));
}

beforeAll(async () => {
  await freshStore();
  client = await import('../../lib/db/client');
  repo = await import('../../lib/db/notification-repo');
  const tasks = await import('../../lib/db/task-repo');
  await client.storeReady();
  await tasks.insertTask({ id: 't', contextId: 'ctx-t', direction: 'inbound', agentSlug: 'echo', state: 'submitted', requestText: 'hi' }, [{ type: 'submitted', state: 'submitted', payload: { message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } } }]);
  for (const [id, url] of ROWS) {
    await exec('INSERT INTO "NotificationDelivery" ("id","taskId","rule","event","seq","url","format","payload","state","owner") VALUES (?, \'t\', \'r\', \'task-failed\', 1, ?, \'json\', \'{}\', \'delivered\', \'me\')', [id, url]);
  }
});

describe('old notification rows lose their full webhook URLs', () => {
  it('cuts every row to its origin, leaves current rows alone, and finds nothing the second time', async () => {
    expect(await repo.cutStoredTargetsToOrigin()).toBe(ROWS.length - 1);
    const stored = await storedUrls();
    expect(stored).toEqual(Object.fromEntries(ROWS.map(([id, , origin]) => [id, origin])));
    expect(JSON.stringify(stored)).not.toMatch(/secret/);
    expect(await repo.cutStoredTargetsToOrigin()).toBe(0);
  });

  it('runs in the start-up check of stored secrets', async () => {
    await exec('INSERT INTO "NotificationDelivery" ("id","taskId","rule","event","seq","url","format","payload","state","owner") VALUES (\'late\', \'t\', \'r\', \'task-failed\', 2, \'https://late.example/path-secret\', \'json\', \'{}\', \'pending\', \'me\')', []);
    const { checkStoredSecrets } = await import('../../lib/runtime/stored-secrets');
    expect(await checkStoredSecrets()).toBeNull();
    expect((await storedUrls()).late).toBe('https://late.example');
  });
});
