/**
 * A peer's stream we cannot read never fails the task. VoltAgent's framing (a
 * U+001E before every SSE data payload, RFC 7464's record separator) is read as JSON; a stream
 * that is not JSON at all is given up: the message goes again as a non-blocking send (same
 * messageId), the task is polled to its end, and why is recorded on the task. Both peers are the
 * a2a-js 0.3.14 server's own handler behind the framing (tests/support/framed-peer.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { artifactText, dispatch, waitForTask } from '../support/dispatch-api';
import { startFramedPeer, type FramedPeer } from '../support/framed-peer';

let app: AppServer;
let voltLike: FramedPeer;
let garbage: FramedPeer;

beforeAll(async () => {
  [app, voltLike, garbage] = await Promise.all([startApp(), startFramedPeer('record-separator'), startFramedPeer('garbage')]);
});
afterAll(async () => {
  await Promise.all([app?.stop(), voltLike?.close(), garbage?.close()]);
});

const EXPECTED = 'sdk chunk 1\nsdk chunk 2\nsdk chunk 3\n';
const remoteNotes = (events: { type: string; payload: unknown }[]) => events.filter((e) => e.type === 'remote').map((e) => e.payload as { event: string; reason?: string; via?: string });

describe('peer streams we cannot read as they are', () => {
  it('U+001E before each data payload (VoltAgent): the stream is read, the task completes over it', async () => {
    const taskId = await dispatch(app.url, { url: voltLike.url, text: 'chunks 3 every 50ms', mode: 'blocking' });
    const view = await waitForTask(app.url, taskId);
    expect(view.task.state).toBe('completed');
    expect(artifactText(view)).toBe(EXPECTED);
    expect(remoteNotes(view.events).map((n) => n.event)).not.toContain('stream-unreadable');
    expect(voltLike.methods[0]).toBe('message/stream');
    expect(voltLike.methods).not.toContain('message/send');
  });

  it('an event that is not JSON: recorded, sent again non-blocking, polled to completion — never failed', async () => {
    const taskId = await dispatch(app.url, { url: garbage.url, text: 'chunks 3 every 50ms', mode: 'blocking' });
    const view = await waitForTask(app.url, taskId);
    expect(view.task.state).toBe('completed');
    expect(artifactText(view)).toBe(EXPECTED);
    const note = remoteNotes(view.events).find((n) => n.event === 'stream-unreadable');
    expect(note).toMatchObject({ reason: expect.stringContaining('not JSON'), via: expect.stringContaining('non-blocking send') });
    expect(garbage.methods.slice(0, 2)).toEqual(['message/stream', 'message/send']);
    expect(garbage.methods).toContain('tasks/get');
    expect(garbage.methods).not.toContain('tasks/resubscribe');
  });
});
