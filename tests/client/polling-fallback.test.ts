/**
 * Issue 13: the polling fallback. A peer that cannot be subscribed to (its card offers no
 * streaming, or it refuses tasks/resubscribe | SubscribeToTask) is followed by tasks/get |
 * GetTask polling, to its real end: the result with every chunk. Without the polling path the
 * follow would retry subscribing until the follow limit and end FAILED.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { artifactText, dispatch, waitForTask, type TaskView } from '../support/dispatch-api';
import { sdkChunkText, startSdkPeer, type SdkPeer } from '../support/sdk-peer';

let a: AppServer;
let noStreaming: SdkPeer;
let refusesSubscribe: SdkPeer;

beforeAll(async () => {
  [a, noStreaming, refusesSubscribe] = await Promise.all([startApp(), startSdkPeer({ streaming: false }), startSdkPeer({ refuseSubscribe: true })]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), noStreaming?.close(), refusesSubscribe?.close()]);
});

const CHUNKS = 6;
const expectedResult = Array.from({ length: CHUNKS }, (_, i) => sdkChunkText(i)).join('');
const METHODS = { '0.3': { get: 'tasks/get', subscribe: 'tasks/resubscribe' }, '1.0': { get: 'GetTask', subscribe: 'SubscribeToTask' } } as const;
const remoteEvents = (view: TaskView) => view.events.filter((e) => e.type === 'remote').map((e) => (e.payload as { event?: string }).event);

/** Requests to `peer` made after `from`, by method. */
const callsSince = (peer: SdkPeer, from: number, method: string) => peer.requests.slice(from).filter((r) => r.method === method).length;

describe.each(['0.3', '1.0'] as const)('following over v%s a peer that cannot be subscribed to', (version) => {
  it('its card offers no streaming: polling reaches COMPLETED with every chunk, never subscribing', async () => {
    const from = noStreaming.requests.length;
    const taskId = await dispatch(a.url, { url: noStreaming.url, text: `chunks ${CHUNKS} every 150ms`, mode: 'background', protocolVersion: version });
    const view = await waitForTask(a.url, taskId);
    expect(view.task.state).toBe('completed');
    expect(artifactText(view)).toBe(expectedResult);
    expect(callsSince(noStreaming, from, METHODS[version].get)).toBeGreaterThan(0);
    expect(callsSince(noStreaming, from, METHODS[version].subscribe)).toBe(0);
  });

  it('it refuses to subscribe: one refusal, a polling note, then polling reaches COMPLETED', async () => {
    const from = refusesSubscribe.requests.length;
    const taskId = await dispatch(a.url, { url: refusesSubscribe.url, text: `chunks ${CHUNKS} every 150ms`, mode: 'background', protocolVersion: version });
    const view = await waitForTask(a.url, taskId);
    expect(view.task.state).toBe('completed');
    expect(artifactText(view)).toBe(expectedResult);
    expect(remoteEvents(view)).toContain('polling');
    expect(callsSince(refusesSubscribe, from, METHODS[version].subscribe)).toBe(1);
    expect(callsSince(refusesSubscribe, from, METHODS[version].get)).toBeGreaterThan(0);
    expect(view.events.filter((e) => e.type === 'follow-error')).toEqual([]);
  });
});
