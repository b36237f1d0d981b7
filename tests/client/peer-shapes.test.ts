/**
 * Peer shapes, client side, against real HTTP peers:
 * - a VoltAgent-shaped peer (results without `kind`, its card at a non-standard path, another
 *   agent's card at the origin) is spoken to in every mode: the card URL is the card, the card's
 *   `url` the endpoint, and kind-less results are accepted on send, stream and get alike;
 * - card requests carry `A2A-Version`, so an @a2a-js/sdk 1.3.0 server that serves v1.0 only
 *   answers with its card (a card listing only HTTP+JSON: rest-peer.test.ts; the error for a card
 *   offering nothing we speak: lib/client/endpoint-binding.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { startKindlessPeer, VOLT_RESULT, type KindlessPeer } from '../support/kindless-peer';
import { startSdkPeer, sdkChunkText, type SdkPeer } from '../support/sdk-peer';
import { artifactText, dispatch, waitForTask } from '../support/dispatch-api';

let a: AppServer;
let volt: KindlessPeer;
let v10Only: SdkPeer;
/** A v0.3 peer that refuses card requests carrying A2A-Version. */
let strict: KindlessPeer;

beforeAll(async () => {
  [a, volt, v10Only, strict] = await Promise.all([
    startApp({ SWITCHBOARD_CLIENT_TIMEOUT: '1.5' }),
    startKindlessPeer(),
    startSdkPeer({ versions: ['1.0'] }),
    startKindlessPeer({ refuseVersionHeader: true }),
  ]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), volt?.close(), v10Only?.close(), strict?.close()]);
});

describe('a VoltAgent-shaped peer: kind-less results, a card at /.well-known/volt/agent-card.json', () => {
  const modes = ['blocking', 'streaming', 'background'] as const;

  it.each(modes)('%s from the card URL ends COMPLETED with the result (a quick answer)', async (mode) => {
    const taskId = await dispatch(a.url, { url: volt.cardUrl, text: 'wait 10ms', mode });
    const view = await waitForTask(a.url, taskId);
    expect(view.task.state).toBe('completed');
    expect(view.task.endReason).toBeNull();
    expect(artifactText(view, 'volt-result')).toBe(VOLT_RESULT);
    expect(view.task.peerUrl).toBe(volt.endpoint);
  });

  it.each(modes)('%s by the endpoint URL (the origin card names another agent): kind-less results are accepted', async (mode) => {
    const taskId = await dispatch(a.url, { url: volt.endpoint, text: 'wait 10ms', mode });
    const view = await waitForTask(a.url, taskId);
    expect(view.task.state).toBe('completed');
    expect(artifactText(view, 'volt-result')).toBe(VOLT_RESULT);
    expect(view.events.some((e) => e.type === 'follow-error')).toBe(false);
  });

  it.each(modes)('%s ends COMPLETED when the peer answers after our client timeout (stream, then polling)', async (mode) => {
    const taskId = await dispatch(a.url, { url: volt.cardUrl, text: 'wait 3500ms', mode });
    const view = await waitForTask(a.url, taskId);
    expect(view.task.state).toBe('completed');
    expect(artifactText(view, 'volt-result')).toBe(VOLT_RESULT);
    expect(view.task.remoteTaskId).toBeTruthy();
  });

  it('the card URL is only read, never extended or POSTed to; calls go to the card url', () => {
    const posts = volt.requests.filter((r) => r.method === 'POST');
    expect(new Set(posts.map((r) => r.path))).toEqual(new Set(['/a2a/volt']));
    const gets = volt.requests.filter((r) => r.method === 'GET');
    const cardReads = new Set(gets.map((r) => r.path));
    expect(cardReads).toContain('/.well-known/volt/agent-card.json');
    expect([...cardReads].filter((path) => path.startsWith('/.well-known/volt/agent-card.json/'))).toEqual([]);
    expect(posts.map((r) => r.rpc)).toEqual(expect.arrayContaining(['message/send', 'message/stream', 'tasks/get']));
  });
});

describe('card requests and the JSON-RPC interface', () => {
  it('a v1.0-only @a2a-js/sdk server answers the card request: the dispatch completes over v1.0', async () => {
    const taskId = await dispatch(a.url, { url: v10Only.url, text: 'chunks 2 every 10ms', mode: 'blocking' });
    const view = await waitForTask(a.url, taskId);
    expect(view.task.state).toBe('completed');
    expect(artifactText(view, 'sdk-result')).toBe(sdkChunkText(0) + sdkChunkText(1));
    expect(new Set(v10Only.requests.map((r) => r.headers['a2a-version']))).toEqual(new Set(['1.0']));
  });

  it('a server that refuses the version header on its card is asked once more without it', async () => {
    const taskId = await dispatch(a.url, { url: strict.cardUrl, text: 'wait 10ms', mode: 'blocking' });
    const view = await waitForTask(a.url, taskId);
    expect(view.task.state).toBe('completed');
    const cardReads = strict.requests.filter((r) => r.method === 'GET').map((r) => r.a2aVersion ?? 'none');
    expect(cardReads).toEqual(['1.0', 'none']);
  });

  it('a dispatch that asks for v0.3 reads the card without the version header', async () => {
    const before = strict.requests.length;
    const taskId = await dispatch(a.url, { url: strict.cardUrl, text: 'wait 10ms', mode: 'blocking', protocolVersion: '0.3' });
    expect((await waitForTask(a.url, taskId)).task.state).toBe('completed');
    const cardReads = strict.requests.slice(before).filter((r) => r.method === 'GET').map((r) => r.a2aVersion ?? 'none');
    expect(cardReads).toEqual(['none']);
  });
});
