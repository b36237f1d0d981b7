/**
 * Operator notification rules against a real loopback webhook receiver and a real
 * Switchboard (W = 1 s): JSON and Slack payloads, retries after a 500 with one Idempotency-Key,
 * exactly one delivery across restarts (delivered before, pending at, and ended by a restart),
 * and invalid rules refusing the start with the key named.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { queryAppDb } from '../support/app-db';
import { rpc, waitFor } from '../support/a2a-clients';
import { dispatch, waitForTask } from '../support/dispatch-api';
import { startWebhookReceiver, type ReceivedHook, type WebhookReceiver } from '../support/webhook-receiver';

let app: AppServer;
let hooks: WebhookReceiver;
/** Paths that answer 500 until removed from this set. */
const failing = new Set<string>();

function writeConfig(doc: unknown): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-notify-')), 'switchboard.json');
  fs.writeFileSync(file, JSON.stringify(doc));
  return file;
}

beforeAll(async () => {
  hooks = await startWebhookReceiver();
  hooks.respond = ({ path: p }) => (failing.has(p) ? 500 : 200);
  const config = writeConfig({
    notifications: [
      { name: 'ops', on: ['detached-task-ended', 'task-failed', 'input-required'], url: `${hooks.url}/ops`, allowPrivate: true, retries: 6, backoffSeconds: 0.2, headers: { 'X-Hook-Secret': 's3cret' } },
      { name: 'chat', on: ['outbound-ended'], peers: ['self'], url: `${hooks.url}/chat/T000/B000/XXXX`, format: 'slack', allowPrivate: true, backoffSeconds: 0.2 },
    ],
  });
  // On PostgreSQL a killed instance's turns are taken over once its lease expires: a short one.
  app = await startApp({ SWITCHBOARD_CONFIG: config, SWITCHBOARD_RESPONSE_WINDOW: '1', SWITCHBOARD_LEASE: '1' });
});
afterAll(async () => {
  await app?.stop();
  await hooks?.close();
});

/** A blocking message/send: a task still running at W = 1 s comes back detached. */
async function sendToAgent(agent: string, text: string): Promise<string> {
  const message = { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text }] };
  const { body } = (await rpc(`${app.url}/a2a/${agent}`, 'message/send', { message, configuration: { blocking: true } })) as { body: { result?: { id?: string } } };
  if (!body.result?.id) throw new Error(`message/send failed: ${JSON.stringify(body)}`);
  return body.result.id;
}

const forTask = (taskId: string, p = '/ops') => hooks.received.filter((r) => r.path === p && (r.body.task as { id?: string } | undefined)?.id === taskId);
const delivered = (list: ReceivedHook[]) => list.filter((r) => r.status === 200);

interface DeliveryView {
  rule: string;
  events: string[];
  state: string;
  attempts: number;
  target: string;
  attemptLog: { status?: number; error?: string }[];
}

async function deliveries(taskId: string): Promise<DeliveryView[]> {
  const res = await fetch(`${app.url}/api/tasks/${taskId}/notifications`);
  return ((await res.json()) as { deliveries: DeliveryView[] }).deliveries;
}

const settled = (taskId: string, count = 1) =>
  waitFor(async () => {
    const list = await deliveries(taskId).catch(() => []);
    return list.length >= count && list.every((d) => d.state !== 'pending') ? list : null;
  }, 60_000);

describe('payloads', () => {
  it('a detached task that ends sends one JSON document with the task and its result', async () => {
    const taskId = await sendToAgent('slow', 'work 2s chunks 2');
    await waitForTask(app.url, taskId);
    const [log] = await settled(taskId);
    expect(log).toMatchObject({ rule: 'ops', events: ['detached-task-ended'], state: 'delivered', attempts: 1, target: hooks.url });
    const got = forTask(taskId);
    expect(got).toHaveLength(1);
    expect(got[0].body).toMatchObject({ kind: 'switchboard.notification', rule: 'ops', events: ['detached-task-ended'], task: { id: taskId, direction: 'inbound', agent: 'slow', state: 'completed', detached: true } });
    expect(String(got[0].body.result)).toContain('chunk 00002');
    expect((got[0].body.task as { dashboardUrl: string }).dashboardUrl).toBe(`${app.url}/tasks/${taskId}`);
    expect(got[0].headers['x-hook-secret']).toBe('s3cret');
    expect(got[0].headers['idempotency-key']).toBe(got[0].body.deliveryId);
  });

  it('an outbound task to a listed peer sends a Slack-compatible {text}; the log shows the origin only', async () => {
    const taskId = await dispatch(app.url, { peer: 'self', text: 'hello <team> & co' });
    await waitForTask(app.url, taskId);
    const [log] = await settled(taskId);
    expect(log).toMatchObject({ rule: 'chat', events: ['outbound-ended'], state: 'delivered', target: hooks.url });
    const got = hooks.received.filter((r) => r.path.startsWith('/chat/') && String(r.body.text).includes(taskId.slice(0, 13)));
    expect(got).toHaveLength(1);
    expect(Object.keys(got[0].body)).toEqual(['text']);
    expect(got[0].body.text).toMatch(/completed/);
    expect(got[0].body.text).toContain('hello &lt;team&gt; &amp; co');
  });

  it('a task that needs input notifies input-required', async () => {
    const taskId = await sendToAgent('ask', 'hi');
    const [log] = await settled(taskId);
    expect(log.events).toEqual(['input-required']);
    expect(forTask(taskId)[0].body.task).toMatchObject({ state: 'input-required' });
  });
});

describe('retries', () => {
  it('retries after 500s with backoff and the same delivery id, until one 2xx; the log has every attempt', async () => {
    failing.add('/ops');
    const taskId = await sendToAgent('budget', 'steps 5 budget 3');
    await waitFor(async () => forTask(taskId).length >= 2);
    failing.delete('/ops');
    const [log] = await settled(taskId);
    const got = forTask(taskId);
    expect(log.state).toBe('delivered');
    expect(log.events).toEqual(['task-failed']);
    expect(log.attempts).toBe(got.length);
    expect(log.attemptLog.filter((a) => a.status === 500).length).toBe(got.length - 1);
    expect(delivered(got)).toHaveLength(1);
    expect(new Set(got.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    // The failed attempts were logged with the target's origin, not its path.
    expect(app.logs()).toContain('notification failed; will retry');
    expect(app.logs()).not.toContain(`${hooks.url}/ops`);
  });
});

describe('secrets in webhook URLs', () => {
  it('a delivery row stores the target origin only, not the path where the webhook secret sits', async () => {
    const taskId = await dispatch(app.url, { peer: 'self', text: 'secret path' });
    await waitForTask(app.url, taskId);
    await settled(taskId);
    const urls = await storedDeliveryUrls(app);
    expect(urls.length).toBeGreaterThan(0);
    expect(urls.every((u) => u === hooks.url)).toBe(true);
    expect(urls.join(' ')).not.toContain('XXXX');
  });
});

describe('exactly once across restarts', () => {
  it('delivered before a restart: never again; pending at a restart: delivered once after it', async () => {
    const before = await sendToAgent('budget', 'steps 5 budget 3');
    await settled(before);
    failing.add('/ops');
    const pending = await sendToAgent('budget', 'steps 4 budget 2');
    await waitFor(async () => forTask(pending).length >= 1);
    await app.stop();
    failing.delete('/ops');
    await app.restart();
    const [log] = await settled(pending);
    expect(log.state).toBe('delivered');
    expect(delivered(forTask(pending))).toHaveLength(1);
    // The pending one went out after the restart; the delivered one did not go out again.
    expect(forTask(before)).toHaveLength(1);
  });

  it('a detached task ended by restart recovery is notified once', async () => {
    const taskId = await sendToAgent('slow', 'work 60s');
    await app.kill();
    await app.restart();
    const [log] = await settled(taskId);
    expect(log).toMatchObject({ state: 'delivered', events: ['detached-task-ended', 'task-failed'] });
    const got = forTask(taskId);
    expect(got).toHaveLength(1);
    expect(got[0].body.task).toMatchObject({ state: 'failed', endReason: 'interrupted: restart' });
    // Once more through a restart: still one.
    const marker = await sendToAgent('budget', 'steps 3 budget 1');
    await app.stop();
    await app.restart();
    await settled(marker);
    expect(forTask(taskId)).toHaveLength(1);
  });
});

/** Every NotificationDelivery.url as stored. */
const storedDeliveryUrls = async (server: AppServer) => (await queryAppDb<{ url: string }>(server, 'SELECT "url" FROM "NotificationDelivery"')).map((r) => r.url);

describe('invalid rules', () => {
  it('refuse the start, naming the rule and the key', async () => {
    const config = writeConfig({ notifications: [{ name: 'bad', on: ['task-finished'], url: 'https://example.com/hook' }] });
    await expect(startApp({ SWITCHBOARD_CONFIG: config })).rejects.toThrow(/notifications\[0\] "bad": on\.0/);
  });

  it('a loopback target without allowPrivate is refused by the SSRF guard at start', async () => {
    const config = writeConfig({ notifications: [{ name: 'local', on: ['task-failed'], url: `${hooks.url}/x` }] });
    await expect(startApp({ SWITCHBOARD_CONFIG: config })).rejects.toThrow(/notifications "local": url: 127\.0\.0\.1 is a loopback address/);
  });

  it('a host name that resolves to a loopback address is refused at start too', async () => {
    const config = writeConfig({ notifications: [{ name: 'named', on: ['task-failed'], url: `http://localhost:${new URL(hooks.url).port}/x` }] });
    await expect(startApp({ SWITCHBOARD_CONFIG: config })).rejects.toThrow(/notifications "named": url: localhost resolves to a refused address: .*loopback/);
  });
});
