/**
 * The delegation graph's check, automated: a three-hop chain across three real instances (A's launched agent
 * → B, B's launched agent → C, C's echo answers; tests/support/hop-chain.ts), all exporting to
 * one OTLP/HTTP receiver on loopback. The chain is one trace with each hop's spans parented on
 * the previous hop's client call, and A's task tree (the task page's API) reaches down to C's
 * task with states.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, waitFor } from '../support/a2a-clients';
import { readTask } from '../support/dispatch-api';
import { startHopChain, type HopChain } from '../support/hop-chain';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver';

let receiver: OtlpReceiver;
let chain: HopChain;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  chain = await startHopChain({ otlpUrl: receiver.url });
}, 180_000);
afterAll(async () => {
  await chain?.stop();
  await receiver?.close();
});

interface Child {
  id: string;
  direction: string;
  state: string;
  peerName: string | null;
  remoteTaskId: string | null;
}
interface Hop {
  taskId: string;
  remoteTaskId: string;
  state: string | null;
  children: Child[];
  error: string | null;
}
const childrenOf = async (url: string, id: string) => ((await readTask(url, id)) as unknown as { children: Child[] }).children;
const hopsOf = async (url: string, id: string) => ((await (await fetch(`${url}/api/tasks/${id}/hops`)).json()) as { hops: Hop[] }).hops;
const spanOf = (taskId: string, prefix: string) => waitFor(async () => receiver.spans.find((s) => s.name.startsWith(prefix) && s.attributes['a2a.task.id'] === taskId), 60_000, 100);
const spanById = (id: string) => receiver.spans.find((s) => s.spanId === id);

describe('a three-hop chain A → B → C', () => {
  let aTask: string;
  let aChild: Child;
  let bTask: string;
  let bChild: Child;
  let cTask: string;

  it("runs to the end: A's agent reports its child completed", async () => {
    const res = await rpc(`${chain.a.url}/a2a/delegator`, 'message/send', { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'go' }] } });
    expect(res.body.result.status.state).toBe('completed');
    aTask = res.body.result.id as string;
    const reply = res.body.result.status.message.parts.map((p: { text?: string }) => p.text ?? '').join('');
    expect(reply).toMatch(/^child \S+ completed/);
  }, 120_000);

  it("A's task tree shows the child at B and, read at B, B's child at C, with states", async () => {
    [aChild] = await childrenOf(chain.a.url, aTask);
    expect(aChild).toMatchObject({ direction: 'outbound', state: 'completed', peerName: 'hop-b' });
    bTask = aChild.remoteTaskId!;
    const hops = await hopsOf(chain.a.url, aTask);
    expect(hops).toHaveLength(1);
    expect(hops[0]).toMatchObject({ taskId: aChild.id, remoteTaskId: bTask, state: 'completed', error: null });
    expect(hops[0].children).toHaveLength(1);
    bChild = hops[0].children[0];
    // What B tells an A2A caller about its children is scoped: no peer names, no URLs.
    expect(bChild).toMatchObject({ direction: 'outbound', state: 'completed', peerName: null, peerUrl: null });
    cTask = bChild.remoteTaskId!;
    // The hops are the real tasks: B's names A's dispatch as parent, C's names B's dispatch. Another
    // hub's parent is its claim (callerParent), never a link in B's own graph.
    const atB = (await readTask(chain.b.url, bTask)) as unknown as { task: { parentTaskId: string | null; callerParent: { taskId: string }; state: string } };
    expect(atB.task).toMatchObject({ parentTaskId: null, callerParent: { taskId: aChild.id }, state: 'completed' });
    const atC = (await readTask(chain.c.url, cTask)) as unknown as { task: { parentTaskId: string | null; callerParent: { taskId: string }; state: string; agentSlug: string } };
    expect(atC.task).toMatchObject({ parentTaskId: null, callerParent: { taskId: bChild.id }, state: 'completed', agentSlug: 'echo' });
  });

  it('every span of the chain is in one trace, each hop under the previous hop', async () => {
    const aServer = await spanOf(aTask, 'a2a.task delegator');
    const aTurn = await spanOf(aTask, 'invoke_agent delegator');
    const aDispatch = await spanOf(aChild.id, 'a2a.dispatch hop-b');
    const aCall = await spanOf(aChild.id, 'a2a.client');
    const bServer = await spanOf(bTask, 'a2a.task delegator');
    const bTurn = await spanOf(bTask, 'invoke_agent delegator');
    const bDispatch = await spanOf(bChild.id, 'a2a.dispatch hop-c');
    const cServer = await spanOf(cTask, 'a2a.task echo');
    const cTurn = await spanOf(cTask, 'invoke_agent echo');
    const chainSpans = [aServer, aTurn, aDispatch, aCall, bServer, bTurn, bDispatch, cServer, cTurn];
    expect(new Set(chainSpans.map((s) => s.traceId)).size).toBe(1);
    expect(aServer.parentSpanId).toBe('');
    expect(aTurn.parentSpanId).toBe(aServer.spanId);
    expect(aDispatch.parentSpanId).toBe(aServer.spanId);
    expect(aCall.parentSpanId).toBe(aDispatch.spanId);
    // Across the hop A → B: B's task span is the child of A's client call.
    const bParent = spanById(bServer.parentSpanId) as ReceivedSpan;
    expect(bParent).toMatchObject({ name: expect.stringMatching(/^a2a\.client /), kind: 3, traceId: aServer.traceId });
    expect(bParent.attributes['a2a.task.id']).toBe(aChild.id);
    expect(bTurn.parentSpanId).toBe(bServer.spanId);
    expect(bDispatch.parentSpanId).toBe(bServer.spanId);
    // Across the hop B → C.
    const cParent = spanById(cServer.parentSpanId) as ReceivedSpan;
    expect(cParent).toMatchObject({ name: expect.stringMatching(/^a2a\.client /), kind: 3, parentSpanId: bDispatch.spanId });
    expect(cTurn.parentSpanId).toBe(cServer.spanId);
    // Every span any instance sent for these tasks is in that trace too.
    const ids = new Set([aTask, aChild.id, bTask, bChild.id, cTask]);
    const all = receiver.spans.filter((s) => ids.has(String(s.attributes['a2a.task.id'])));
    expect(new Set(all.map((s) => s.traceId))).toEqual(new Set([aServer.traceId]));
  });

  it('a hop whose peer does not answer shows why, and an unknown task is a 404', async () => {
    expect((await fetch(`${chain.a.url}/api/tasks/no-such-task/hops`)).status).toBe(404);
    await chain.b.stop();
    const [hop] = await hopsOf(chain.a.url, aTask);
    expect(hop).toMatchObject({ taskId: aChild.id, remoteTaskId: bTask, state: null, children: [] });
    expect(hop.error).toMatch(/^the peer did not answer tasks\/get: /);
  });
});
