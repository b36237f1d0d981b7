/**
 * Extensions a config agent declares: listed in both card generations beside the timing
 * extension, and a `required` one refuses a message whose request does not name it in
 * `A2A-Extensions` (v0.3: `X-A2A-Extensions`) with ExtensionSupportRequiredError (v1.0 §3.3.2),
 * on JSON-RPC (both versions) and HTTP+JSON alike. Other operations are not gated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp, type AppServer } from '../support/app-server';
import { rpc } from '../support/a2a-clients';

const REQUIRED = 'https://example.com/extensions/citations/v1';
const OPTIONAL = 'https://example.com/extensions/geolocation/v1';
const V10 = { 'A2A-Version': '1.0' };

let app: AppServer;

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-ext-'));
  const answer = path.resolve('tests/fixtures/agents/sleep-then-answer.mjs');
  const config = {
    agents: [
      {
        slug: 'cited',
        name: 'Cited',
        extensions: [
          { uri: REQUIRED, description: 'Answers carry citations', required: true },
          { uri: OPTIONAL, params: { precision: 'city' } },
        ],
        launcher: { type: 'process', command: [answer, '0', 'cited', 'answer'] },
      },
    ],
  };
  fs.writeFileSync(path.join(dir, 'switchboard.json'), JSON.stringify(config));
  app = await startApp({ SWITCHBOARD_CONFIG: path.join(dir, 'switchboard.json'), SWITCHBOARD_LOG_LEVEL: 'error' });
});
afterAll(async () => app?.stop());

const v10Send = () => ({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hi' }] } });
const v03Send = () => ({ message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'hi' }] } });

describe('agent extensions from the config', () => {
  it("both card generations list the declared extensions after Switchboard's timing and generation extensions", async () => {
    for (const headers of [V10, {}]) {
      const card = await (await fetch(`${app.url}/a2a/cited/.well-known/agent-card.json`, { headers })).json();
      const extensions = card.capabilities.extensions as { uri: string }[];
      expect(extensions.slice(0, 2).map((e) => e.uri)).toEqual(['https://switchboard.dev/extensions/timing/v1', 'https://switchboard.dev/extensions/generation/v1']);
      // The pure v1.0 card is ProtoJSON: proto3's default `required: false` is left out.
      const optional = headers === V10 ? { uri: OPTIONAL, params: { precision: 'city' } } : { uri: OPTIONAL, required: false, params: { precision: 'city' } };
      expect(extensions.slice(2)).toEqual([{ uri: REQUIRED, description: 'Answers carry citations', required: true }, optional]);
    }
  });

  it('JSON-RPC v1.0: a message without the required extension is -32008; naming it in A2A-Extensions runs the agent', async () => {
    const refused = await rpc(`${app.url}/a2a/cited`, 'SendMessage', v10Send(), V10);
    expect(refused.body.error).toMatchObject({ code: -32008, message: expect.stringContaining(REQUIRED), data: [{ reason: 'EXTENSION_SUPPORT_REQUIRED' }] });
    const streamed = await rpc(`${app.url}/a2a/cited`, 'SendStreamingMessage', v10Send(), V10);
    expect(streamed.body.error).toMatchObject({ code: -32008 });

    const accepted = await rpc(`${app.url}/a2a/cited`, 'SendMessage', v10Send(), { ...V10, 'A2A-Extensions': `${OPTIONAL}, ${REQUIRED}` });
    expect(accepted.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    // Reading the task is not gated: the extension concerns what the agent does with a message.
    const got = await rpc(`${app.url}/a2a/cited`, 'GetTask', { id: accepted.body.result.task.id }, V10);
    expect(got.body.result.id).toBe(accepted.body.result.task.id);
  });

  it('JSON-RPC v0.3: X-A2A-Extensions names it', async () => {
    const refused = await rpc(`${app.url}/a2a/cited`, 'message/send', v03Send());
    expect(refused.body.error).toMatchObject({ code: -32008, message: expect.stringContaining(REQUIRED) });
    const accepted = await rpc(`${app.url}/a2a/cited`, 'message/send', v03Send(), { 'X-A2A-Extensions': REQUIRED });
    expect(accepted.body.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
  });

  it('HTTP+JSON: 400 FAILED_PRECONDITION without it, the task with it', async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${app.url}/a2a/cited/message:send`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...V10, ...headers }, body: JSON.stringify(v10Send()) });
    const refused = await post({});
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatchObject({ status: 'FAILED_PRECONDITION', details: [{ reason: 'EXTENSION_SUPPORT_REQUIRED' }] });
    const accepted = await post({ 'A2A-Extensions': REQUIRED });
    expect(accepted.status).toBe(200);
    expect((await accepted.json()).task.status.state).toBe('TASK_STATE_COMPLETED');
  });
});
