/**
 * Push webhooks cannot reach the hub's own network. Literal special addresses are
 * refused when registered (-32602, both versions); a host name is accepted unresolved and
 * checked when delivering, so a name that resolves to loopback gets nothing sent to it.
 * A real loopback receiver on every loopback address (`::`, dual stack) counts what arrives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApp, type AppServer } from '../support/app-server';
import { rpc, waitFor } from '../support/a2a-clients';

let app: AppServer;
let receiver: http.Server;
let port: number;
const received: string[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    req.resume();
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '::', resolve));
  port = (receiver.address() as AddressInfo).port;
  app = await startApp({ SWITCHBOARD_RESPONSE_WINDOW: '5' });
});
afterAll(async () => {
  await app?.stop();
  receiver?.close();
});

const v1 = { 'A2A-Version': '1.0' };

async function startTask(): Promise<string> {
  const sent = await rpc(`${app.url}/a2a/slow`, 'message/send', {
    message: { messageId: `m-${Math.random().toString(36).slice(2)}`, role: 'user', parts: [{ kind: 'text', text: 'work 0.5s chunks 1' }] },
    configuration: { blocking: false },
  });
  return sent.body.result.id;
}

describe('push webhook SSRF guard', () => {
  const literals = ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '0.0.0.0', '[::]', '[::7f00:1]', '[64:ff9b::7f00:1]', '[::ffff:169.254.169.254]', '[::ffff:10.0.0.1]', '100.64.0.1', '198.18.0.1', '224.0.0.1'];

  it.each(literals)('registration refuses %s in both versions, naming the field', async (host) => {
    const url = `http://${host}:${port}/hook`;
    const taskId = await startTask();
    const v03 = await rpc(`${app.url}/a2a/slow`, 'tasks/pushNotificationConfig/set', { taskId, pushNotificationConfig: { url, token: 't' } });
    expect(v03.body.error).toMatchObject({ code: -32602 });
    expect(v03.body.error.message).toMatch(/url: .* address; add it to SWITCHBOARD_PUSH_ALLOWLIST/);
    const v10 = await rpc(`${app.url}/a2a/slow`, 'CreateTaskPushNotificationConfig', { taskId, url, token: 't' }, v1);
    expect(v10.body.error).toMatchObject({ code: -32602 });
    const inline = await rpc(`${app.url}/a2a/slow`, 'message/send', {
      message: { messageId: `inline-${literals.indexOf(host)}`, role: 'user', parts: [{ kind: 'text', text: 'hi' }] },
      configuration: { blocking: false, pushNotificationConfig: { url } },
    });
    expect(inline.body.error).toMatchObject({ code: -32602 });
  });

  it('an unresolvable name is accepted at registration (no DNS oracle)', async () => {
    const taskId = await startTask();
    const set = await rpc(`${app.url}/a2a/slow`, 'CreateTaskPushNotificationConfig', { taskId, url: 'https://example.com/webhook' }, v1);
    expect(set.body.error).toBeUndefined();
    expect(set.body.result).toMatchObject({ taskId, url: 'https://example.com/webhook' });
  });

  it('a name that resolves to loopback is accepted, then refused at delivery: the receiver gets nothing', async () => {
    const taskId = await startTask();
    const url = `http://localhost:${port}/hook`;
    const set = await rpc(`${app.url}/a2a/slow`, 'tasks/pushNotificationConfig/set', { taskId, pushNotificationConfig: { url, token: 'secret' } });
    expect(set.body.result).toMatchObject({ taskId });
    await waitFor(async () => (await rpc(`${app.url}/a2a/slow`, 'tasks/get', { id: taskId })).body.result?.status.state === 'completed');
    await waitFor(() => Promise.resolve(app.logs().includes('webhook address refused') && app.logs().includes(taskId)));
    expect(app.logs()).toMatch(/localhost resolves to a refused address/);
    expect(received).toEqual([]);
  });
});
