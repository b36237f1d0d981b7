/**
 * Push deliveries are durable work, on both stores. A task's deliveries are queued in
 * the transaction of each status change and sent per config in seq order. When the server is
 * killed (-9) with one POST in flight (the webhook holds it) and the later deliveries of that
 * config still pending behind it, the restarted server sends the one in flight again (its outcome
 * is unknown; same delivery id: at least once) and each pending one once, in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { rpc, waitFor } from '../support/a2a-clients';
import { pushReceipts, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let app: AppServer;
let hooks: WebhookReceiver;
let hookUrl: string;

beforeAll(async () => {
  hooks = await startWebhookReceiver();
  hooks.respond = ({ nth }) => (nth === 1 ? 'hold' : 200); // the first POST stays in flight
  hookUrl = `${hooks.url}/hook`;
  app = await startApp({ SWITCHBOARD_PUSH_ALLOWLIST: '127.0.0.1' });
});
afterAll(async () => {
  await app?.kill();
  await hooks?.close();
});

describe('push deliveries across a kill -9', () => {
  it('the one in flight is sent again with the same id; the pending ones after it once each, in seq order', async () => {
    const sent = await rpc(`${app.url}/a2a/slow`, 'message/send', {
      message: { messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'work 0.5s chunks 3' }] },
      configuration: { blocking: false, pushNotificationConfig: { url: hookUrl } },
    });
    const id = sent.body.result.id as string;
    await waitFor(async () => (await rpc(`${app.url}/a2a/slow`, 'tasks/get', { id })).body.result.status.state === 'completed');
    const receipts = () => pushReceipts(hooks);
    expect(receipts()).toHaveLength(1); // the first is held; the others wait behind it
    const [inFlight] = receipts();
    await app.kill();
    await app.restart();
    await waitFor(async () => receipts().some((r) => r.state === 'completed'));
    const after = receipts().slice(1);
    expect(after[0].key).toBe(inFlight.key); // sent again: its outcome was unknown
    expect(after.map((r) => r.seq)).toEqual([...new Set(after.map((r) => r.seq))].sort((x, y) => x - y)); // once each, in order
    expect(after.length).toBeGreaterThan(1);
    // Nothing more comes for this task: a later task's push arrives after any duplicate would have.
    const later = (await rpc(`${app.url}/a2a/echo`, 'message/send', { message: { messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'x' }] }, configuration: { blocking: false, pushNotificationConfig: { url: hookUrl } } })).body.result.id as string;
    await waitFor(async () => receipts().some((r) => r.key.startsWith(`${later}:`)));
    expect(receipts().filter((r) => r.key.startsWith(`${id}:`) && r.state === 'completed')).toHaveLength(1);
  });
});
