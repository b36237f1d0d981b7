/**
 * A part whose media type is not among the agent's input modes is refused with
 * ContentTypeNotSupported (-32005; HTTP+JSON 415) before any task exists (A2A §3.1.1). Built-in
 * agents accept text/plain and application/json; a launcher agent declares `inputModes` in the
 * config, and its card lists them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp, type AppServer } from '../support/app-server';
import { rpc } from '../support/a2a-clients';

const V10 = { 'A2A-Version': '1.0' };
let app: AppServer;

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-modes-'));
  const answer = path.resolve('tests/fixtures/agents/sleep-then-answer.mjs');
  const config = { agents: [{ slug: 'viewer', name: 'Viewer', inputModes: ['text/plain', 'Image/*'], launcher: { type: 'process', command: [answer, '0', 'viewer', 'answer'] } }] };
  fs.writeFileSync(path.join(dir, 'switchboard.json'), JSON.stringify(config));
  app = await startApp({ SWITCHBOARD_CONFIG: path.join(dir, 'switchboard.json'), SWITCHBOARD_LOG_LEVEL: 'error' });
});
afterAll(async () => app?.stop());

const v03 = (...parts: unknown[]) => ({ message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts } });
const v10 = (...parts: unknown[]) => ({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts } });
const PNG = { kind: 'file', file: { bytes: 'iVBORw0KGgo=', name: 'a.png', mimeType: 'image/png' } };

async function taskCount(): Promise<number> {
  const listed = await rpc(`${app.url}/a2a/echo`, 'ListTasks', { pageSize: 100 }, V10);
  return listed.body.result.tasks.length;
}

describe('media types outside the input modes', () => {
  it('JSON-RPC v0.3 and v1.0: -32005 naming the part, and no task is created', async () => {
    const before = await taskCount();
    const old = await rpc(`${app.url}/a2a/echo`, 'message/send', v03({ kind: 'text', text: 'see' }, PNG));
    expect(old.body.error).toMatchObject({ code: -32005, message: expect.stringContaining('params.message.parts[1]: media type image/png') });
    const streamed = await rpc(`${app.url}/a2a/echo`, 'message/stream', v03(PNG));
    expect(streamed.body).toMatchObject({ error: { code: -32005 } });
    const now = await rpc(`${app.url}/a2a/echo`, 'SendMessage', v10({ text: '<b>hi</b>', mediaType: 'text/html' }), V10);
    expect(now.body.error).toMatchObject({ code: -32005, message: expect.stringContaining('parts[0]: media type text/html'), data: [{ reason: 'CONTENT_TYPE_NOT_SUPPORTED' }] });
    expect(await taskCount()).toBe(before);
  });

  it('HTTP+JSON: 415 with the AIP-193 body', async () => {
    const res = await fetch(`${app.url}/a2a/echo/message:send`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...V10 }, body: JSON.stringify(v10({ raw: 'AAAA', mediaType: 'application/pdf' })) });
    expect(res.status).toBe(415);
    expect((await res.json()).error).toMatchObject({ code: 415, details: [{ reason: 'CONTENT_TYPE_NOT_SUPPORTED' }], message: expect.stringContaining('application/pdf') });
  });

  it('accepted: text and data parts (also the empty mediaType a2a-js sends), parameters ignored, a file that names no type', async () => {
    const ok = await rpc(`${app.url}/a2a/echo`, 'SendMessage', v10({ text: 'a', mediaType: '' }, { text: 'b', mediaType: 'Text/Plain; charset=utf-8' }, { data: { x: 1 } }, { url: 'https://example.com/f' }), V10);
    expect(ok.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('a launcher agent declares its input modes: its card lists them and a wildcard admits a type', async () => {
    const card = await (await fetch(`${app.url}/a2a/viewer/.well-known/agent-card.json`, { headers: V10 })).json();
    expect(card.defaultInputModes).toEqual(['text/plain', 'image/*']);
    const image = await rpc(`${app.url}/a2a/viewer`, 'message/send', v03({ kind: 'text', text: 'look' }, PNG));
    expect(image.body.result.status.state).toBe('completed');
    const json = await rpc(`${app.url}/a2a/viewer`, 'message/send', v03({ kind: 'data', data: { a: 1 } }));
    expect(json.body.error).toMatchObject({ code: -32005, message: expect.stringContaining("agent viewer's input modes (text/plain, image/*)") });
  });
});
