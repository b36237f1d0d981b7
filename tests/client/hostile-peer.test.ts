/**
 * A peer that streams 48 MiB without a newline. The SSE parser stops at its bound
 * (SseLimitError) with bounded memory and closes the stream; an outbound task following such a
 * peer records the follow error, falls back to tasks/get polling, and still gets the result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscribeTask } from '@/lib/client/a2a-client';
import { SSE_MAX_EVENT_CHARS, SseLimitError } from '@/lib/client/sse';
import { startApp, type AppServer } from '../support/app-server';
import { dispatch, waitForTask } from '../support/dispatch-api';
import { startHostilePeer, type HostilePeer } from '../support/hostile-peer';

const MIB = 1024 * 1024;
const STREAM_BYTES = 48 * MIB;
let peer: HostilePeer;

beforeAll(async () => {
  peer = await startHostilePeer(STREAM_BYTES);
});
afterAll(async () => {
  await peer?.close();
});

describe('outbound SSE bound against a hostile peer', () => {
  it('48 MiB without a newline: the parse stops at the bound, memory stays bounded, the stream is closed', async () => {
    const rssBefore = process.memoryUsage.rss();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 5);
    try {
      const target = { endpoint: `${peer.url}/rpc`, version: '0.3' as const, headers: {} };
      const events: unknown[] = [];
      const run = (async () => {
        for await (const batch of subscribeTask(target, 'hostile-task', { timeoutMs: 60_000 })) events.push(...batch);
      })();
      await expect(run).rejects.toBeInstanceOf(SseLimitError);
      expect(events).toEqual([]);
    } finally {
      clearInterval(sampler);
    }
    const sent = await waitForSent(1);
    // The client hung up: the peer could not push its whole 48 MiB.
    expect(sent[0]).toBeLessThan(STREAM_BYTES);
    expect(sent[0]).toBeGreaterThan(SSE_MAX_EVENT_CHARS);
    // 16 Mi characters kept at most, plus chunk garbage: nowhere near the 48 MiB (+480 MiB seen).
    expect(rssPeak - rssBefore).toBeLessThan(160 * MIB);
  });

  describe('following such a peer', () => {
    let app: AppServer;
    beforeAll(async () => {
      app = await startApp();
    });
    afterAll(async () => {
      await app?.stop();
    });

    it('records the oversize event as a follow error and falls back to polling', async () => {
      const taskId = await dispatch(app.url, { url: peer.url, text: 'flood me', mode: 'background' });
      const view = await waitForTask(app.url, taskId);
      expect(view.task.state).toBe('completed');
      const followError = view.events.find((e) => e.type === 'follow-error');
      expect(followError?.payload).toMatchObject({ phase: 'subscribe', error: expect.stringContaining('exceeds') });
      expect(view.events.some((e) => e.type === 'remote' && (e.payload as { event?: string }).event === 'polling')).toBe(true);
      expect(view.snapshot.artifacts?.[0].parts[0].text).toBe('polled result');
    });
  });
});

async function waitForSent(count: number): Promise<number[]> {
  const deadline = Date.now() + 30_000;
  while (peer.streamsSent.length < count) {
    if (Date.now() > deadline) throw new Error('the hostile stream never closed');
    await new Promise((r) => setTimeout(r, 20));
  }
  return peer.streamsSent;
}
