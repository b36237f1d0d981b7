/**
 * Push-notification config CRUD in both versions, and delivery on state changes to a
 * real webhook (v0.3: the Task with X-A2A-Notification-Token; v1.0: a StreamResponse with
 * Authorization). The loopback webhook is allowed through SWITCHBOARD_PUSH_ALLOWLIST.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApp, type AppServer } from '../support/app-server';
import { queryAppDb } from '../support/app-db';
import { rpc, waitFor } from '../support/a2a-clients';

interface Delivery {
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

let app: AppServer;
let webhook: http.Server;
let hookUrl: string;
const deliveries: Delivery[] = [];

beforeAll(async () => {
  webhook = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body: JSON.parse(data) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/hook`;
  app = await startApp({ SWITCHBOARD_PUSH_ALLOWLIST: '127.0.0.1', SWITCHBOARD_RESPONSE_WINDOW: '5' });
});
afterAll(async () => {
  await app?.stop();
  webhook?.close();
});

describe('push notifications', () => {
  it('a webhook URL is stored sealed (its path and query are the secret) and still delivered to', async () => {
    const secretUrl = `${hookUrl}/SECRET-PATH-123?token=q-secret-456`;
    const sent = await rpc(`${app.url}/a2a/slow`, 'message/send', {
      message: { messageId: 'p-sealed', role: 'user', parts: [{ kind: 'text', text: 'work 0.1s chunks 1' }] },
      configuration: { blocking: false, pushNotificationConfig: { url: secretUrl } },
    });
    const id = sent.body.result.id;
    await waitFor(() => Promise.resolve(deliveries.find((d) => (d.body as { id?: string }).id === id && (d.body as { status: { state: string } }).status.state === 'completed')));
    const rows = await queryAppDb<{ url: string }>(app, `SELECT "url" FROM "PushConfig" WHERE "taskId" = '${id}'`);
    expect(rows).toHaveLength(1);
    expect(rows[0].url).toMatch(/^enc:v1:/);
    expect(rows[0].url).not.toContain('SECRET-PATH');
    const got = await rpc(`${app.url}/a2a/slow`, 'tasks/pushNotificationConfig/get', { id });
    expect(got.body.result.pushNotificationConfig.url).toBe(secretUrl); // the caller reads its own URL back
  });

  it('v0.3: an inline config gets the Task on each state change, ending with the completed task', async () => {
    const sent = await rpc(`${app.url}/a2a/slow`, 'message/send', {
      message: { messageId: 'p1', role: 'user', parts: [{ kind: 'text', text: 'work 0.3s chunks 2' }] },
      configuration: { blocking: false, pushNotificationConfig: { url: hookUrl, token: 'tok-v03' } },
    });
    const id = sent.body.result.id;
    const final = await waitFor(() =>
      Promise.resolve(deliveries.find((d) => (d.body as { id?: string }).id === id && (d.body as { status: { state: string } }).status.state === 'completed')),
    );
    expect(final.headers['x-a2a-notification-token']).toBe('tok-v03');
    expect(final.body).toMatchObject({ kind: 'task', id, status: { state: 'completed' } });

    const got = await rpc(`${app.url}/a2a/slow`, 'tasks/pushNotificationConfig/get', { id });
    expect(got.body.result).toMatchObject({ taskId: id, pushNotificationConfig: { id, url: hookUrl, token: 'tok-v03' } });
    // A get naming an id no config has is an error, never another config (decisions.md).
    const unnamed = await rpc(`${app.url}/a2a/slow`, 'tasks/pushNotificationConfig/get', { id, pushNotificationConfigId: 'default' });
    expect(unnamed.body.error).toMatchObject({ code: -32001, message: expect.stringContaining('default') });
    const listed = await rpc(`${app.url}/a2a/slow`, 'tasks/pushNotificationConfig/list', { id });
    expect(listed.body.result).toHaveLength(1);
    const deleted = await rpc(`${app.url}/a2a/slow`, 'tasks/pushNotificationConfig/delete', { id, pushNotificationConfigId: id });
    expect(deleted.body.result).toBeNull();
    const after = await rpc(`${app.url}/a2a/slow`, 'tasks/pushNotificationConfig/list', { id });
    expect(after.body.result).toHaveLength(0);
  });

  it('v1.0: CreateTaskPushNotificationConfig, then StreamResponse payloads with Authorization', async () => {
    const v1 = { 'A2A-Version': '1.0' };
    const sent = await rpc(`${app.url}/a2a/slow`, 'SendMessage', { message: { messageId: 'p2', role: 'ROLE_USER', parts: [{ text: 'work 1s chunks 2' }] }, configuration: { returnImmediately: true } }, v1);
    const id = sent.body.result.task.id;
    const created = await rpc(`${app.url}/a2a/slow`, 'CreateTaskPushNotificationConfig', { taskId: id, id: 'cfg-1', url: hookUrl, authentication: { scheme: 'Bearer', credentials: 'secret-1' } }, v1);
    expect(created.body.result).toMatchObject({ taskId: id, id: 'cfg-1', url: hookUrl });
    const final = await waitFor(() =>
      Promise.resolve(
        deliveries.find((d) => {
          const update = (d.body as { statusUpdate?: { taskId: string; status: { state: string } } }).statusUpdate;
          return update !== undefined && update.taskId === id && update.status.state === 'TASK_STATE_COMPLETED';
        }),
      ),
    );
    expect(final.headers.authorization).toBe('Bearer secret-1');
    expect(final.headers['content-type']).toContain('application/a2a+json');
    const got = await rpc(`${app.url}/a2a/slow`, 'GetTaskPushNotificationConfig', { taskId: id, id: 'cfg-1' }, v1);
    expect(got.body.result.id).toBe('cfg-1');
    const listed = await rpc(`${app.url}/a2a/slow`, 'ListTaskPushNotificationConfigs', { taskId: id }, v1);
    expect(listed.body.result.configs).toHaveLength(1);
  });
});
