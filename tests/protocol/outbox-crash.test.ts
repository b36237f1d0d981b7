/**
 * The work a task's end causes commits in the same transaction as the end, on both
 * stores. A test-only fault (SWITCHBOARD_TEST_CRASH_AFTER_END_COMMIT) kills the server right
 * after the end commits and before anything in the process hears of it, where an enqueue after
 * the commit would be lost; after the restart, the operator notification and the push
 * notification for that end are each delivered once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { rpc, waitFor } from '../support/a2a-clients';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let app: AppServer;
let hooks: WebhookReceiver;

beforeAll(async () => {
  hooks = await startWebhookReceiver();
  const config = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-outbox-')), 'switchboard.json');
  fs.writeFileSync(config, JSON.stringify({ notifications: [{ name: 'ops', on: ['task-failed'], url: `${hooks.url}/ops`, allowPrivate: true }] }));
  app = await startApp({ SWITCHBOARD_CONFIG: config, SWITCHBOARD_PUSH_ALLOWLIST: '127.0.0.1', SWITCHBOARD_TEST_CRASH_AFTER_END_COMMIT: '1' });
});
afterAll(async () => {
  await app?.kill();
  await hooks?.close();
});

const gone = async (url: string) => fetch(`${url}/api/health`).then(
  () => false,
  () => true,
);

describe('a crash right after a task ends', () => {
  it('loses neither its notification nor its push: both are sent once after the restart', async () => {
    const sent = await rpc(`${app.url}/a2a/budget`, 'message/send', {
      message: { messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'steps 4 budget 2' }] },
      configuration: { blocking: false, pushNotificationConfig: { url: `${hooks.url}/push` } },
    });
    const id = sent.body.result.id as string;
    await waitFor(() => gone(app.url));
    await app.kill(); // what is left of the process group
    expect(hooks.received.filter((r) => r.path === '/ops')).toEqual([]); // it died before it could send
    await app.restart({ SWITCHBOARD_TEST_CRASH_AFTER_END_COMMIT: '' });
    const failedPushes = () => hooks.received.filter((r) => r.path === '/push' && r.body.id === id && (r.body.status as { state: string }).state === 'failed');
    const notified = () => hooks.received.filter((r) => r.path === '/ops' && (r.body.task as { id: string }).id === id);
    await waitFor(async () => failedPushes().length > 0 && notified().length > 0);
    const task = (await rpc(`${app.url}/a2a/budget`, 'tasks/get', { id })).body.result;
    expect(task.status.state).toBe('failed');
    expect(notified()).toHaveLength(1);
    expect(notified()[0].body).toMatchObject({ events: ['task-failed'], task: { state: 'failed', endReason: 'iteration budget exhausted' } });
    // A later task's push comes after any duplicate of the first would have.
    const later = (await rpc(`${app.url}/a2a/echo`, 'message/send', { message: { messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'x' }] }, configuration: { blocking: false, pushNotificationConfig: { url: `${hooks.url}/push` } } })).body.result.id;
    await waitFor(async () => hooks.received.some((r) => r.path === '/push' && r.body.id === later));
    expect(failedPushes()).toHaveLength(1);
  });
});
