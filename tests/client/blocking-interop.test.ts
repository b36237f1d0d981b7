/**
 * A blocking dispatch never loses its task. Against real @a2a-js/sdk servers of
 * three releases (1.3.0 in its v0.3 mode, 0.3.14, 0.2.5: v0.3 JSON-RPC, no tasks/list), a peer
 * agent silent for longer than our client timeout (1.5 s) must end COMPLETED with its result in
 * every mode, whether the card offers streaming or not. tasks/list is never called on them.
 * A peer that can neither stream nor send non-blocking gets a plain blocking send: when our
 * timeout cuts it, the task is looked up by message id where the peer lists tasks (v1.0), and
 * otherwise ends FAILED saying contact was lost, never "cannot be found".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { startSdkPeer, sdkChunkText, type SdkPeer } from '../support/sdk-peer';
import { LEGACY_SDKS, startLegacySdkPeer } from '../support/legacy-sdk-peer';
import { artifactText, dispatch, waitForTask, type TaskView } from '../support/dispatch-api';
import { waitFor } from '../support/a2a-clients';
import { joinedParts } from '@/lib/protocol/artifacts';
import type { Part } from '@/lib/protocol/types';

const SDKS = ['1.3.0', ...LEGACY_SDKS] as const;
type Sdk = (typeof SDKS)[number];

/** Silent 3.5 s (past our 1.5 s timeout), then one chunk and COMPLETED. */
const LATE = 'chunks 1 every 3500ms';

let a: AppServer;
const peers: Partial<Record<`${Sdk}/${'stream' | 'plain'}`, SdkPeer>> = {};
/** A 1.3.0 peer that neither streams nor accepts a non-blocking send. */
let holding: SdkPeer;

function startPeer(sdk: Sdk, streaming: boolean): Promise<SdkPeer> {
  return sdk === '1.3.0' ? startSdkPeer({ streaming }) : startLegacySdkPeer(sdk, { streaming });
}

beforeAll(async () => {
  const started = await Promise.all([
    startApp({ SWITCHBOARD_CLIENT_TIMEOUT: '1.5' }),
    startSdkPeer({ streaming: false, refuseNonBlocking: true }),
    ...SDKS.flatMap((sdk) => [startPeer(sdk, true), startPeer(sdk, false)]),
  ]);
  [a, holding] = started as [AppServer, SdkPeer];
  SDKS.forEach((sdk, i) => {
    peers[`${sdk}/stream`] = started[2 + 2 * i] as SdkPeer;
    peers[`${sdk}/plain`] = started[3 + 2 * i] as SdkPeer;
  });
});
afterAll(async () => {
  await Promise.all([a?.stop(), holding?.close(), ...Object.values(peers).map((p) => p?.close())]);
});

const remoteEvents = (view: TaskView) => view.events.filter((e) => e.type === 'remote').map((e) => e.payload as { event?: string; via?: string });

describe.each(SDKS)('@a2a-js/sdk %s peer over v0.3, answering after our client timeout', (sdk) => {
  const cases = [
    { mode: 'blocking', card: 'stream', via: 'stream' },
    { mode: 'streaming', card: 'stream', via: undefined },
    { mode: 'background', card: 'stream', via: undefined },
    { mode: 'blocking', card: 'plain', via: 'non-blocking send' },
    { mode: 'streaming', card: 'plain', via: undefined },
  ] as const;

  it('every mode ends COMPLETED with the result, and tasks/list is never called', async () => {
    const views = await Promise.all(
      cases.map(async ({ mode, card }) => {
        const peer = peers[`${sdk}/${card}`]!;
        const taskId = await dispatch(a.url, { url: peer.url, text: LATE, mode, protocolVersion: '0.3' });
        return waitForTask(a.url, taskId);
      }),
    );
    views.forEach((view, i) => {
      const { mode, card, via } = cases[i];
      const label = `${mode} with a ${card} card`;
      expect(view.task.state, label).toBe('completed');
      expect(view.task.endReason, label).toBeNull();
      expect(view.task.remoteTaskId, label).toBeTruthy();
      expect(artifactText(view, 'sdk-result'), label).toBe(sdkChunkText(0));
      expect(view.snapshot.status.message?.parts[0]?.text, label).toBe('done: 1 chunks');
      if (via) expect(remoteEvents(view).find((e) => e.event === 'blocking-strategy')?.via, label).toBe(via);
    });
    for (const card of ['stream', 'plain'] as const) {
      const methods = peers[`${sdk}/${card}`]!.requests.map((r) => r.method);
      expect(methods).not.toContain('tasks/list');
      // Blocking never holds a call: every send was a stream or non-blocking.
      expect(methods).toContain(card === 'stream' ? 'message/stream' : 'message/send');
    }
  });
});

describe('a peer that can neither stream nor send non-blocking: plain blocking, the last resort', () => {
  it('a call within our timeout completes as a blocking call does', async () => {
    const taskId = await dispatch(a.url, { url: holding.url, text: 'chunks 1 every 10ms', mode: 'blocking', protocolVersion: '0.3' });
    const view = await waitForTask(a.url, taskId);
    expect(view.task.state).toBe('completed');
    expect(artifactText(view, 'sdk-result')).toBe(sdkChunkText(0));
    expect(remoteEvents(view).filter((e) => e.event === 'blocking-strategy').map((e) => e.via)).toEqual(['non-blocking send', 'plain blocking send']);
  });

  it('a blocking dispatch that streams or sends non-blocking ends exactly as a plain blocking call does', async () => {
    const outcome = async (peer: SdkPeer) => {
      const taskId = await dispatch(a.url, { url: peer.url, text: 'chunks 3 every 10ms', mode: 'blocking', protocolVersion: '0.3' });
      const { task, snapshot } = await waitForTask(a.url, taskId);
      // Compared as stored (decision 214): streamed chunks are one joined part, a plain answer keeps the peer's parts.
      const artifacts = snapshot.artifacts?.map((a) => ({ artifactId: a.artifactId, parts: joinedParts(a.parts as Part[]) }));
      return { state: task.state, endReason: task.endReason, status: snapshot.status.message?.parts, artifacts };
    };
    const [plain, streamed, nonBlocking] = await Promise.all([outcome(holding), outcome(peers['1.3.0/stream']!), outcome(peers['1.3.0/plain']!)]);
    expect(plain.state).toBe('completed');
    expect(streamed).toEqual(plain);
    expect(nonBlocking).toEqual(plain);
  });

  it('over v1.0 a call our timeout cut is looked up by message id (ListTasks) and completes', async () => {
    const taskId = await dispatch(a.url, { url: holding.url, text: LATE, mode: 'blocking', protocolVersion: '1.0' });
    const view = await waitForTask(a.url, taskId);
    expect(view.task.state).toBe('completed');
    expect(artifactText(view, 'sdk-result')).toBe(sdkChunkText(0));
    expect(remoteEvents(view).map((e) => e.event)).toContain('client-timeout');
    expect(holding.requests.map((r) => r.method)).toContain('ListTasks');
  });

  it('over v0.3 a call our timeout cut ends FAILED "lost contact", and tasks/list is never called', async () => {
    const before = holding.requests.length;
    const taskId = await dispatch(a.url, { url: holding.url, text: LATE, mode: 'blocking', protocolVersion: '0.3' });
    const view = await waitForTask(a.url, taskId);
    expect(view.task.state).toBe('failed');
    expect(view.task.endReason).toBe('lost contact with the peer: our client timeout (1.5 s) cut the send before the peer named its task');
    expect(view.task.endReason).not.toMatch(/cannot be found/);
    expect(holding.requests.slice(before).map((r) => r.method)).toEqual(['message/send', 'message/send']);
  });
});

describe('A restarts while a last-resort plain blocking send is held', () => {
  let r: AppServer;
  beforeAll(async () => {
    r = await startApp({ SWITCHBOARD_CLIENT_TIMEOUT: '30' });
  });
  afterAll(async () => {
    await r?.stop();
  });

  /** Dispatches, and kills A once the peer holds the plain blocking send (its second send). */
  async function killWhileHeld(version: '0.3' | '1.0'): Promise<string> {
    const method = version === '1.0' ? 'SendMessage' : 'message/send';
    const sends = () => holding.requests.filter((q) => q.method === method).length;
    const before = sends();
    const taskId = await dispatch(r.url, { url: holding.url, text: LATE, mode: 'blocking', protocolVersion: version });
    await waitFor(async () => sends() >= before + 2, 30_000);
    await r.kill();
    await r.restart();
    return taskId;
  }

  it('over v1.0 the task is looked up by message id and completes, never sent again', async () => {
    const taskId = await killWhileHeld('1.0');
    const view = await waitForTask(r.url, taskId);
    expect(view.task.state).toBe('completed');
    expect(artifactText(view, 'sdk-result')).toBe(sdkChunkText(0));
  });

  it('over v0.3 it ends FAILED "lost contact" saying a restart cut it; tasks/list is never called', async () => {
    const before = holding.requests.length;
    const taskId = await killWhileHeld('0.3');
    const view = await waitForTask(r.url, taskId);
    expect(view.task.state).toBe('failed');
    expect(view.task.endReason).toBe('lost contact with the peer: restarted after sending, before the peer named its task');
    expect(holding.requests.slice(before).map((q) => q.method)).toEqual(['message/send', 'message/send']);
  });
});
