/**
 * The task page shows the task's notification deliveries. A Switchboard of its own
 * (open mode, one rule to a real loopback receiver that answers 500 once) fails a task; the
 * page shows the delivery going from its retry to delivered, with the attempts and the error.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startApp, type AppServer } from '../tests/support/app-server';
import { startWebhookReceiver, type WebhookReceiver } from '../tests/support/webhook-receiver';
import { expect, test } from './fixtures';

let own: AppServer;
let hooks: WebhookReceiver;

test.beforeAll(async () => {
  hooks = await startWebhookReceiver();
  hooks.respond = ({ nth }) => (nth === 1 ? 500 : 200);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-e2e-notify-')), 'switchboard.json');
  fs.writeFileSync(file, JSON.stringify({ notifications: [{ name: 'ops', on: ['task-failed'], url: `${hooks.url}/ops/secret-path`, allowPrivate: true, backoffSeconds: 0.5 }] }));
  own = await startApp({ SWITCHBOARD_CONFIG: file });
});
test.afterAll(async () => {
  await own?.kill();
  await hooks?.close();
});

test('a failed task lists its notification: retried after a 500, then delivered; the target by origin only', async ({ page }) => {
  const res = await fetch(`${own.url}/a2a/budget`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'steps 5 budget 2' }] } } }),
  });
  const taskId = ((await res.json()) as { result: { id: string } }).result.id;
  await page.goto(`${own.url}/tasks/${taskId}`);
  const log = page.getByTestId('notification-log');
  await expect(log).toBeVisible();
  await expect(log.getByTestId('notification-state')).toHaveText('delivered', { timeout: 30_000 });
  await expect(log).toContainText('ops');
  await expect(log).toContainText('task-failed');
  await expect(log).toContainText('2 attempts');
  await expect(log).toContainText(hooks.url);
  await expect(log).not.toContainText('secret-path');
  expect(hooks.received.map((r) => r.status)).toEqual([500, 200]);
});
