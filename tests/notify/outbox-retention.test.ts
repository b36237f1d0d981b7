/**
 * Finished outbox rows are pruned by the running server, on both stores, with a retention
 * of 1 s (SWITCHBOARD_OUTBOX_RETENTION; the pruner then runs every second). A task that ends
 * failed sends its push notifications and two operator notifications: `ops` is delivered at once
 * and pruned; `held` has its first POST in flight (never answered, until it times out), so its
 * row is pending and overdue the whole time: it is not pruned meanwhile, stays in the task page's
 * delivery log, is sent again and delivered, and only then pruned.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { rpc, waitFor } from '../support/a2a-clients';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let app: AppServer;
let hooks: WebhookReceiver;

beforeAll(async () => {
  hooks = await startWebhookReceiver();
  hooks.respond = ({ path: p, nth }) => (p === '/held' && nth === 1 ? 'hold' : 200);
  const config = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-retention-')), 'switchboard.json');
  const rule = (name: string) => ({ name, on: ['task-failed'], url: `${hooks.url}/${name}`, allowPrivate: true, retries: 2, backoffSeconds: 0.2 });
  fs.writeFileSync(config, JSON.stringify({ notifications: [rule('ops'), rule('held')] }));
  app = await startApp({ SWITCHBOARD_CONFIG: config, SWITCHBOARD_PUSH_ALLOWLIST: '127.0.0.1', SWITCHBOARD_OUTBOX_RETENTION: '1' });
});
afterAll(async () => {
  await app?.stop();
  await hooks?.close();
});

/** How many PushDelivery rows the task has, read from the app's database (either store). */
async function pushRows(taskId: string): Promise<number> {
  const sql = 'SELECT count(*) AS "n" FROM "PushDelivery" WHERE "taskId" = ';
  const url = app.env.DATABASE_URL;
  if (!url.startsWith('file:')) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return Number((await client.query<{ n: string }>(`${sql}$1`, [taskId])).rows[0].n);
    } finally {
      await client.end();
    }
  }
  const conn = new Database(url.slice('file:'.length), { fileMustExist: true });
  try {
    return (conn.prepare(`${sql}?`).get(taskId) as { n: number }).n;
  } finally {
    conn.close();
  }
}

async function deliveries(taskId: string): Promise<{ rule: string; state: string }[]> {
  const res = await fetch(`${app.url}/api/tasks/${taskId}/notifications`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { deliveries: { rule: string; state: string }[] }).deliveries;
}

const posts = (p: string) => hooks.received.filter((r) => r.path === p);

describe('finished outbox rows', () => {
  it('are pruned after the retention; a pending one, overdue with its attempt in flight, is kept, sent, and pruned once finished', async () => {
    const sent = await rpc(`${app.url}/a2a/budget`, 'message/send', {
      message: { messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'steps 4 budget 2' }] },
      configuration: { blocking: false, pushNotificationConfig: { url: `${hooks.url}/push` } },
    });
    const id = sent.body.result.id as string;
    await waitFor(async () => posts('/ops').length === 1 && posts('/held').length === 1 && posts('/push').some((r) => (r.body.status as { state: string }).state === 'failed'));
    // `ops` and the pushes finished and were pruned, while `held` (pending) is still in the log.
    await waitFor(async () => {
      const log = await deliveries(id);
      return log.length === 1 && log[0].rule === 'held' && log[0].state === 'pending' && (await pushRows(id)) === 0;
    }, 30_000);
    // Its first attempt times out (10 s), the retry is delivered: once finished, it goes too.
    await waitFor(async () => posts('/held').length === 2, 30_000);
    await waitFor(async () => (await deliveries(id)).length === 0, 30_000);
    expect(posts('/held').map((r) => r.status)).toEqual([null, 200]);
    expect(posts('/ops')).toHaveLength(1);
  });
});
