/**
 * PostgreSQL itself restarts while a task runs on A and B streams it. The writer
 * retries the batch the restart rolled back, the pool and the listener reconnect, and the task
 * completes with every chunk exactly once; B's stream (reconnecting with Last-Event-ID, as a
 * browser does, when its reads fail during the outage) gets every event once, in seq order.
 * An operator notification whose POST is answered while PostgreSQL is down is recorded once the
 * database is back, and not sent again. This file runs its own embedded server, since it
 * restarts it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { rpc, waitFor } from '../support/a2a-clients';
import { startEmbeddedPostgres, type EmbeddedServer } from '../support/embedded-postgres';
import { freshPgDatabase } from '../support/postgres';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let server: EmbeddedServer;
let hooks: WebhookReceiver;
const apps: AppServer[] = [];
beforeAll(async () => {
  server = await startEmbeddedPostgres();
  hooks = await startWebhookReceiver();
});
afterAll(async () => {
  await Promise.all(apps.map((a) => a.kill()));
  await server?.stop();
  await hooks?.close();
});

const health = async (app: AppServer) => (await fetch(`${app.url}/api/health`)).json();

/**
 * Follows a dashboard task stream as EventSource does: when the stream fails (its reads fail
 * while the database is down, and it says so with `stream-error`), reconnect with Last-Event-ID.
 * Returns the seqs of every task-event frame received, over all connections.
 */
async function followStream(app: AppServer, id: string): Promise<{ seqs: number[]; reconnects: number }> {
  const seqs: number[] = [];
  let lastId: string | undefined;
  for (let reconnects = 0; reconnects < 50; reconnects++) {
    const text = await fetch(`${app.url}/api/tasks/${id}/events`, { headers: lastId ? { 'Last-Event-ID': lastId } : {} })
      .then((r) => r.text())
      .catch(() => '');
    for (const m of text.matchAll(/^id: (\d+)\nevent: (\S+)$/gm)) {
      lastId = m[1];
      if (m[2] === 'task-event') seqs.push(Number(m[1]));
    }
    if (text.includes('event: end')) return { seqs, reconnects };
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the stream never ended');
}

describe('a restart of PostgreSQL while tasks run', () => {
  it('loses and duplicates nothing: the task completes whole, a stream on the other instance sees every event once, every push goes out once', async () => {
    const DATABASE_URL = await freshPgDatabase(server.url);
    const a = await startApp({ DATABASE_URL, SWITCHBOARD_INSTANCE_ID: 'a', SWITCHBOARD_PUSH_ALLOWLIST: '127.0.0.1' });
    const b = await startApp({ DATABASE_URL, SWITCHBOARD_INSTANCE_ID: 'b', SWITCHBOARD_PUSH_ALLOWLIST: '127.0.0.1' });
    apps.push(a, b);
    const sent = await rpc(`${a.url}/a2a/slow`, 'message/send', {
      message: { messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'work 6s chunks 24' }] },
      configuration: { blocking: false, pushNotificationConfig: { url: `${hooks.url}/push` } },
    });
    const id = sent.body.result.id as string;
    const stream = followStream(b, id);
    await waitFor(async () => (await rpc(`${a.url}/a2a/slow`, 'tasks/get', { id })).body.result.artifacts?.length > 0);
    await server.restart();
    const ended = await waitFor(async () => {
      const t = await rpc(`${a.url}/a2a/slow`, 'tasks/get', { id }).catch(() => null);
      return t?.body?.result?.status?.state === 'completed' ? t.body.result : null;
    }, 60_000);
    // Every chunk once, in order (appended text is stored as one part).
    const text = ended.artifacts[0].parts.map((p: { text: string }) => p.text).join('');
    expect(text.match(/chunk \d{5}/g)).toEqual(Array.from({ length: 24 }, (_, i) => `chunk ${String(i + 1).padStart(5, '0')}`));
    const { seqs } = await stream;
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0] + i)); // in order, no gap, no duplicate
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ seq: number; type: string; state: string | null }>('SELECT "seq", "type", "state" FROM "TaskEvent" WHERE "taskId" = $1 ORDER BY "seq"', [id]);
      expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
      expect(rows.filter((r) => r.type === 'artifact')).toHaveLength(24);
      expect(rows.filter((r) => r.state === 'completed')).toHaveLength(1);
      expect(seqs[seqs.length - 1]).toBe(rows.length);
      // Every push queued was delivered, and the webhook got each exactly once.
      const completedSeq = rows.find((r) => r.state === 'completed')!.seq;
      await waitFor(async () => hooks.received.some((r) => r.headers['idempotency-key'] === `${id}:${id}:${completedSeq}`));
      const queued = await waitFor(async () => {
        const q = await client.query<{ seq: number; state: string }>('SELECT "seq", "state" FROM "PushDelivery" WHERE "taskId" = $1 ORDER BY "seq"', [id]);
        return q.rows.every((r) => r.state === 'delivered') ? q.rows : null;
      });
      const pushed = hooks.received.filter((r) => String(r.headers['idempotency-key']).startsWith(`${id}:`)).map((r) => Number(String(r.headers['idempotency-key']).split(':').at(-1)));
      expect(pushed).toEqual(queued.map((r) => r.seq));
    } finally {
      await client.end();
    }
    for (const app of [a, b]) {
      const h = await waitFor(async () => {
        const v = await health(app);
        return v.listener.state === 'listening' && v.listener.reconnects >= 1 ? v : null;
      });
      expect(h.store).toBe('postgresql');
    }
  });

  it('a notification answered while PostgreSQL is down is recorded once it is back, not sent again', async () => {
    const DATABASE_URL = await freshPgDatabase(server.url);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-notify-'));
    const config = path.join(dir, 'switchboard.json');
    fs.writeFileSync(config, JSON.stringify({ notifications: [{ name: 'ops', on: ['task-failed'], url: `${hooks.url}/ops`, allowPrivate: true, retries: 3, backoffSeconds: 0.2 }] }));
    hooks.respond = ({ path: p, nth }) => (p === '/ops' && nth === 1 ? 'hold' : 200);
    const posts = () => hooks.received.filter((r) => r.path === '/ops');
    const a = await startApp({ DATABASE_URL, SWITCHBOARD_INSTANCE_ID: 'n', SWITCHBOARD_CONFIG: config });
    apps.push(a);
    const sent = await rpc(`${a.url}/a2a/budget`, 'message/send', { message: { messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'steps 4 budget 2' }] } });
    const id = sent.body.result.id as string;
    await waitFor(async () => posts().length === 1); // the POST is in flight, held by the target
    await server.down();
    await hooks.release(200);
    // The sender got its 200 and could not write it down: it says so (and, without the retry, its pass failed).
    await waitFor(async () => /could not be recorded|notification delivery pass failed/.test(a.logs()));
    await server.up();
    const delivered = await waitFor(async () => {
      const r = await fetch(`${a.url}/api/tasks/${id}/notifications`).catch(() => null);
      const view = r?.ok ? ((await r.json()) as { deliveries: { state: string; attempts: number }[] }).deliveries[0] : undefined;
      return view?.state === 'delivered' ? view : null;
    }, 60_000);
    expect(delivered.attempts).toBe(1);
    expect(posts()).toHaveLength(1);
  });
});
