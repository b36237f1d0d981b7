/**
 * Quiet streams must not look dead: every SSE stream, A2A and dashboard, sends a keepalive
 * comment within SWITCHBOARD_SSE_KEEPALIVE (default 2 s, at most 4 s). The interval is lowered
 * here so the test is quick; what is asserted is an order of events, not a time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';

let app: AppServer;

beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_SSE_KEEPALIVE: '0.3' });
});
afterAll(async () => {
  await app?.stop();
});

/** Reads a response body until `done(text)` holds or the body ends; then stops reading. */
async function readUntil(res: Response, done: (text: string) => boolean): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const step = await reader.read();
    if (step.done) return text;
    text += decoder.decode(step.value, { stream: true });
    if (done(text)) {
      await reader.cancel();
      return text;
    }
  }
}

const KEEPALIVE = ': keepalive\n\n';

describe('keepalives on quiet streams', () => {
  it('an A2A stream of a task that stays quiet for 2 s gets a keepalive before its first chunk', async () => {
    const message = { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'work 2s chunks 1' }] };
    const res = await fetch(`${app.url}/a2a/slow`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/stream', params: { message } }) });
    const text = await readUntil(res, (t) => t.includes('artifact-update'));
    const firstChunk = text.indexOf('artifact-update');
    expect(firstChunk).toBeGreaterThan(0);
    expect(text.slice(0, firstChunk)).toContain(KEEPALIVE);
  });

  it('a dashboard task stream of a task waiting for input (nothing happens) sends keepalives', async () => {
    const message = { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'hello' }] };
    const sent = await fetch(`${app.url}/a2a/ask`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message } }) });
    const { result } = (await sent.json()) as { result: { id: string; status: { state: string } } };
    expect(result.status.state).toBe('input-required');
    const res = await fetch(`${app.url}/api/tasks/${result.id}/events`);
    const text = await readUntil(res, (t) => t.split(KEEPALIVE).length > 2);
    expect(text.split(KEEPALIVE).length).toBeGreaterThan(2);
  });

  it('the dashboard feed, with nothing happening, sends keepalives', async () => {
    const res = await fetch(`${app.url}/api/feed`);
    const text = await readUntil(res, (t) => t.split(KEEPALIVE).length > 2);
    expect(text.split(KEEPALIVE).length).toBeGreaterThan(2);
  });
});
