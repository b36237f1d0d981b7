/**
 * OpenTelemetry spans exported over OTLP/HTTP to a real receiver on loopback. An
 * inbound task continues the caller's traceparent (task span → invoke_agent); an outbound
 * dispatch is one trace across the hop: dispatch span → client call span → the peer's task span
 * (here the peer is the same server), and the peer's task records ours as its parent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { rpc, waitFor } from '../support/a2a-clients';
import { dispatch, readTask, waitForTask } from '../support/dispatch-api';
import { parseTraceparent } from '../../lib/protocol/trace-context';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let receiver: OtlpReceiver;
let app: AppServer;
let webhook: WebhookReceiver;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  webhook = await startWebhookReceiver();
  app = await startApp({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_SERVICE_NAME: 'switchboard-test', SWITCHBOARD_PUSH_ALLOWLIST: '127.0.0.1' });
});
afterAll(async () => {
  await app?.stop();
  await receiver?.close();
  await webhook?.close();
});

const pushedFor = (hooks: WebhookReceiver, taskId: string, state: string) =>
  waitFor(async () => hooks.received.find((h) => {
    const body = h.body as { id?: string; status?: { state?: string } };
    return body.id === taskId && body.status?.state === state;
  }), 30_000, 100);
const pushSend = (url: string, text: string) => ({
  message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }] },
  configuration: { blocking: false, pushNotificationConfig: { url } },
});

const spanWhere = (pred: (s: ReceivedSpan) => boolean) => waitFor(async () => receiver.spans.find(pred), 30_000, 100);

describe('traces over OTLP/HTTP', () => {
  it('an inbound task continues the caller traceparent: task span, then invoke_agent under it', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpan = '00f067aa0ba902b7';
    const res = await rpc(`${app.url}/a2a/echo`, 'message/send', { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'hi' }] } }, {
      traceparent: `00-${traceId}-${callerSpan}-01`,
      tracestate: 'vendor=abc',
    });
    const taskId = res.body.result.id as string;
    const task = await spanWhere((s) => s.name === 'a2a.task echo' && s.attributes['a2a.task.id'] === taskId);
    expect(task.traceId).toBe(traceId);
    expect(task.parentSpanId).toBe(callerSpan);
    expect(task.attributes['a2a.task.state']).toBe('completed');
    const turn = await spanWhere((s) => s.name === 'invoke_agent echo' && s.attributes['a2a.task.id'] === taskId);
    expect(turn.traceId).toBe(traceId);
    expect(turn.parentSpanId).toBe(task.spanId);
    expect(turn.attributes['gen_ai.operation.name']).toBe('invoke_agent');
    // The task page shows the trace id.
    const view = (await readTask(app.url, taskId)) as unknown as { task: { traceId: string } };
    expect(view.task.traceId).toBe(traceId);
  });

  it('an invalid traceparent is ignored: the task starts its own trace', async () => {
    const res = await rpc(`${app.url}/a2a/echo`, 'message/send', { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'hi' }] } }, { traceparent: 'garbage' });
    const taskId = res.body.result.id as string;
    const task = await spanWhere((s) => s.name === 'a2a.task echo' && s.attributes['a2a.task.id'] === taskId);
    expect(task.parentSpanId).toBe('');
    expect(task.traceId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('an outbound dispatch and the peer task it reaches are one trace, linked parent to child', async () => {
    const taskId = await dispatch(app.url, { url: `${app.url}/a2a/echo`, text: 'hello', mode: 'blocking' });
    const mine = await waitForTask(app.url, taskId);
    expect(mine.task.state).toBe('completed');
    const dispatchSpan = await spanWhere((s) => s.name.startsWith('a2a.dispatch') && s.attributes['a2a.task.id'] === taskId);
    const remoteId = mine.task.remoteTaskId!;
    const peerTask = await spanWhere((s) => s.name === 'a2a.task echo' && s.attributes['a2a.task.id'] === remoteId);
    expect(peerTask.traceId).toBe(dispatchSpan.traceId);
    const call = receiver.spans.find((s) => s.spanId === peerTask.parentSpanId);
    expect(call?.name).toMatch(/^a2a\.client /);
    expect(call?.parentSpanId).toBe(dispatchSpan.spanId);
    expect(call?.kind).toBe(3); // CLIENT
    // The peer task names ours as its parent (metadata.switchboard.parentTask): the delegation graph.
    const theirs = (await readTask(app.url, remoteId)) as unknown as { task: { parentTaskId: string; traceId: string } };
    expect(theirs.task.parentTaskId).toBe(taskId);
    expect(theirs.task.traceId).toBe(dispatchSpan.traceId);
    const parentView = (await readTask(app.url, taskId)) as unknown as { children: { id: string }[] };
    expect(parentView.children.map((c) => c.id)).toContain(remoteId);
  });
});

describe('push deliveries carry the trace', () => {
  it('each webhook POST sends traceparent/tracestate: the a2a.push span, in the task trace', async () => {
    const traceId = '5bf92f3577b34da6a3ce929d0e0e4737';
    const res = await rpc(`${app.url}/a2a/slow`, 'message/send', pushSend(`${webhook.url}/traced`, 'work 0.2s chunks 1'), {
      traceparent: `00-${traceId}-00f067aa0ba902b8-01`,
      tracestate: 'vendor=push',
    });
    const taskId = res.body.result.id as string;
    const hook = await pushedFor(webhook, taskId, 'completed');
    const sent = parseTraceparent(String(hook.headers.traceparent));
    expect(sent?.traceId).toBe(traceId);
    expect(hook.headers.tracestate).toBe('vendor=push');
    const push = await spanWhere((s) => s.name === 'a2a.push' && s.spanId === sent?.spanId);
    expect(push.traceId).toBe(traceId);
    expect(push.attributes['a2a.task.id']).toBe(taskId);
  });
});

// Trace context is checked for header safety; span attributes carry no URL secrets.
describe('unsafe trace context and URL secrets', () => {
  it('a tracestate with CR LF, NUL or non-ASCII is dropped: the push still goes out, with the traceparent', async () => {
    const traceId = '7bf92f3577b34da6a3ce929d0e0e4739';
    for (const [i, tracestate] of ['vendor=a\r\nX-Injected: 1', 'vendor=a\u0000b', 'vendor=😀'].entries()) {
      const send = pushSend(`${webhook.url}/unsafe-${i}?token=push-secret-${i}`, 'work 0.2s chunks 1');
      const metadata = { switchboard: { trace: { traceparent: `00-${traceId}-00f067aa0ba902c${i}-01`, tracestate } } };
      const res = await rpc(`${app.url}/a2a/slow`, 'message/send', { ...send, message: { ...send.message, metadata } });
      const hook = await pushedFor(webhook, res.body.result.id as string, 'completed');
      const sent = parseTraceparent(String(hook.headers.traceparent));
      expect(sent?.traceId).toBe(traceId);
      expect(hook.headers.tracestate).toBeUndefined();
      // The push span names the webhook without its query (where its secret sits).
      const push = await spanWhere((s) => s.name === 'a2a.push' && s.spanId === sent?.spanId);
      expect(push.attributes['url.full']).toBe(`${webhook.url}/unsafe-${i}`);
    }
  });

  it("an outbound call's span shows the peer URL without its query string", async () => {
    const taskId = await dispatch(app.url, { url: `${app.url}/a2a/echo?token=query-secret-123`, text: 'hello', mode: 'blocking' });
    expect((await waitForTask(app.url, taskId)).task.state).toBe('completed');
    const dispatchSpan = await spanWhere((s) => s.name.startsWith('a2a.dispatch') && s.attributes['a2a.task.id'] === taskId);
    const call = await spanWhere((s) => s.name.startsWith('a2a.client') && s.attributes['a2a.task.id'] === taskId);
    expect(call.attributes['url.full']).toBe(`${app.url}/a2a/echo`);
    expect(JSON.stringify([dispatchSpan, call])).not.toContain('query-secret-123');
  });
});

describe('trace context with tracing off', () => {
  let plain: AppServer;
  let hooks: WebhookReceiver;
  beforeAll(async () => {
    hooks = await startWebhookReceiver();
    plain = await startApp({ SWITCHBOARD_PUSH_ALLOWLIST: '127.0.0.1' });
  });
  afterAll(async () => {
    await plain?.stop();
    await hooks?.close();
  });

  it("push deliveries forward the caller's traceparent unchanged", async () => {
    const traceparent = '00-6bf92f3577b34da6a3ce929d0e0e4738-00f067aa0ba902b9-01';
    const res = await rpc(`${plain.url}/a2a/slow`, 'message/send', pushSend(`${hooks.url}/plain`, 'work 0.2s chunks 1'), { traceparent });
    const hook = await pushedFor(hooks, res.body.result.id as string, 'completed');
    expect(hook.headers.traceparent).toBe(traceparent);
    expect(hook.headers.tracestate).toBeUndefined();
  });

  it('is kept on the task and forwarded unchanged on a child dispatch, so the trace is not cut', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const res = await rpc(`${plain.url}/a2a/slow`, 'message/send', { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'work 5s chunks 1' }] }, configuration: { blocking: false } }, {
      traceparent: `00-${traceId}-b7ad6b7169203331-01`,
    });
    const parentId = res.body.result.id as string;
    const childId = await dispatch(plain.url, { url: `${plain.url}/a2a/echo`, text: 'hi', mode: 'blocking', parentTaskId: parentId });
    const child = await waitForTask(plain.url, childId);
    const hop = (await readTask(plain.url, child.task.remoteTaskId!)) as unknown as { task: { traceId: string; parentTaskId: string } };
    expect(hop.task.traceId).toBe(traceId);
    expect(hop.task.parentTaskId).toBe(childId);
    const parent = (await readTask(plain.url, parentId)) as unknown as { task: { traceId: string }; children: { id: string }[] };
    expect(parent.task.traceId).toBe(traceId);
    expect(parent.children.map((c) => c.id)).toEqual([childId]);
  });
});
