/**
 * The connect-time guard, against a real receiver listening on every loopback
 * address (dual-stack `::`). Every special form must be refused before anything is sent; a host
 * name is resolved and checked only when delivering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PushAllowlist } from './address-policy';
import { postWebhook, WebhookRefusedError } from './guarded-post';

let receiver: http.Server;
let port: number;
const received: string[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    received.push(`${req.method} ${req.url} token=${req.headers['x-a2a-notification-token'] ?? ''}`);
    req.resume();
    if (req.url === '/redirect') res.writeHead(302, { Location: `http://127.0.0.1:${port}/landed` }).end();
    else res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '::', resolve));
  port = (receiver.address() as AddressInfo).port;
});
afterAll(() => receiver?.close());

const post = (host: string, allow: string[] = [], urlPath = '/hook') =>
  postWebhook({ url: `http://${host}:${port}${urlPath}`, headers: { 'X-A2A-Notification-Token': 'secret' }, body: '{}', timeoutMs: 5_000, allowlist: new PushAllowlist(allow) });

describe('postWebhook (connect-time SSRF guard)', () => {
  it.each(['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '0.0.0.0', '127.0.0.1', '[::1]', '[::]', '[::7f00:1]', '[64:ff9b::7f00:1]', '[64:ff9b:1::7f00:1]', '2130706433'])(
    'refuses %s and the receiver gets nothing',
    async (host) => {
      await expect(post(host)).rejects.toBeInstanceOf(WebhookRefusedError);
      expect(received).toEqual([]);
    },
  );

  it('a name is resolved at delivery and refused when it resolves to loopback', async () => {
    await expect(post('localhost')).rejects.toThrow(/localhost resolves to a refused address: .* loopback address/);
    expect(received).toEqual([]);
  });

  it('allowlisted hosts and addresses are delivered to', async () => {
    expect(await post('localhost', ['localhost'])).toBe(200);
    expect(await post('127.0.0.1', ['127.0.0.1'])).toBe(200);
    expect(await post('[::ffff:127.0.0.1]', ['127.0.0.0/8'])).toBe(200);
    expect(received).toHaveLength(3);
  });

  it('a redirect is not followed', async () => {
    received.length = 0;
    expect(await post('127.0.0.1', ['127.0.0.1'], '/redirect')).toBe(302);
    expect(received).toEqual(['POST /redirect token=secret']);
  });
});
