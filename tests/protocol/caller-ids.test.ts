/**
 * Ids a caller chooses can reach a launcher's argv ({context_id}, {task_id}); one
 * that is not a plain identifier (e.g. `--help`, `-rf`, spaces) is refused with -32602 naming
 * the field, in both versions. UUIDs and `prefix-uuid` ids, and v1.0's empty ids, still work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startApp, type AppServer } from '../support/app-server';
import { rpc } from '../support/a2a-clients';

let app: AppServer;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.stop();
});

const v1 = { 'A2A-Version': '1.0' };
const v03Send = (message: Record<string, unknown>) => rpc(`${app.url}/a2a/echo`, 'message/send', { message: { messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'hi' }], ...message } });
const v10Send = (message: Record<string, unknown>) => rpc(`${app.url}/a2a/echo`, 'SendMessage', { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hi' }], ...message } }, v1);

describe('caller-chosen ids must be plain identifiers', () => {
  it.each([
    ['contextId', '--help'],
    ['contextId', '-rf'],
    ['contextId', 'a b'],
    ['contextId', '../etc'],
    ['taskId', '--output=/tmp/x'],
    ['messageId', '-m'],
    ['messageId', 'x'.repeat(300)],
  ])('v0.3 and v1.0 refuse %s %j with -32602 naming it', async (field, value) => {
    for (const res of [await v03Send({ [field]: value }), await v10Send({ [field]: value })]) {
      expect(res.body.error).toMatchObject({ code: -32602 });
      expect(res.body.error.message).toMatch(new RegExp(`params\\.message\\.${field}: expected a plain identifier`));
    }
  });

  it('UUIDs, prefixed ids and the empty ids v1.0 clients send are accepted', async () => {
    const contextId = `ctx-${randomUUID()}`;
    const v03 = await v03Send({ contextId, messageId: `tck-stream-001-${randomUUID()}` });
    expect(v03.body.result).toMatchObject({ contextId });
    const v10 = await v10Send({ contextId: '', taskId: '' });
    expect(v10.body.error).toBeUndefined();
  });
});
