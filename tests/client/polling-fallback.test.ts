/**
 * The polling fallback. A peer that cannot be subscribed to (its card offers no
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

/** Dispatches in the background to `peer` and waits for the end; counts the peer's calls meanwhile. */
async function followToEnd(peer: SdkPeer, version: '0.3' | '1.0') {
  const from = peer.requests.length;
  const taskId = await dispatch(a.url, { url: peer.url, text: `chunks ${CHUNKS} every 150ms`, mode: 'background', protocolVersion: version });
  const view = await waitForTask(a.url, taskId);
  const calls = (method: string) => peer.requests.slice(from).filter((r) => r.method === method).length;
  expect(view.task.state).toBe('completed');
  expect(artifactText(view)).toBe(expectedResult);
  return { view, gets: calls(METHODS[version].get), subscribes: calls(METHODS[version].subscribe) };
}

describe.each(['0.3', '1.0'] as const)('following over v%s a peer that cannot be subscribed to', (version) => {
  it('its card offers no streaming: polling reaches COMPLETED with every chunk, never subscribing', async () => {
    const { gets, subscribes } = await followToEnd(noStreaming, version);
    expect(gets).toBeGreaterThan(0);
    expect(subscribes).toBe(0);
  });

  it('it refuses to subscribe: one refusal, a polling note, then polling reaches COMPLETED', async () => {
    const { view, gets, subscribes } = await followToEnd(refusesSubscribe, version);
    expect(remoteEvents(view)).toContain('polling');
    expect(subscribes).toBe(1);
    expect(gets).toBeGreaterThan(0);
    expect(view.events.filter((e) => e.type === 'follow-error')).toEqual([]);
  });
});
