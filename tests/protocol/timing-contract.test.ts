/**
 * The timing contract with a 1 s response window, over v1.0 and v0.3.
 * A window end detaches (never fails); the late result is recorded and visible everywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { artifactText, asTask, collect, lastState, partsText, rpc, sdkClient, sendParams, sseResults, TaskState, waitFor, type SdkVersion } from '../support/a2a-clients';

let app: AppServer;

beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_RESPONSE_WINDOW: '1', SWITCHBOARD_LATE_RESULT_GRACE: '30' });
});
afterAll(async () => app?.stop());

describe.each<SdkVersion>(['1.0', '0.3'])('response window over v%s', (version) => {
  it('a blocking send to a 3 s task returns WORKING with instructions after the window, and tasks/get later has the whole result', async () => {
    const client = await sdkClient(app.url, 'slow', version);
    const started = Date.now();
    const task = asTask(await client.sendMessage(sendParams('work 3s chunks 6 size 16')));
    const elapsed = Date.now() - started;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(elapsed).toBeGreaterThanOrEqual(900);
    const guidance = partsText(task.status?.message?.parts);
    expect(guidance).toContain(task.id);
    expect(guidance).toMatch(/tasks\/get/);
    expect(guidance).toMatch(/SubscribeToTask/);
    expect(task.status?.message?.metadata?.switchboard).toMatchObject({ detached: true, taskId: task.id, reason: 'response window ended' });

    const done = await waitFor(async () => {
      const t = await client.getTask({ id: task.id, historyLength: undefined, tenant: '' });
      return t.status?.state === TaskState.TASK_STATE_COMPLETED ? t : null;
    });
    expect(artifactText(done, 'result').split('\n').filter(Boolean)).toHaveLength(6);
  });

  it('a subscriber that attaches after the detach sees the completion', async () => {
    const client = await sdkClient(app.url, 'slow', version);
    const task = asTask(await client.sendMessage(sendParams('work 2.5s chunks 5')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    const events = await collect(client.resubscribeTask({ id: task.id, tenant: '' }));
    expect(events[0].payload?.$case).toBe('task');
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('an open stream at the window end gets the detach status (not final) and closes; the task completes', async () => {
    const client = await sdkClient(app.url, 'slow', version);
    const events = await collect(client.sendMessageStream(sendParams('work 2s chunks 4')));
    expect(lastState(events)).toBe(TaskState.TASK_STATE_WORKING);
    const last = events[events.length - 1];
    expect(last.payload?.$case).toBe('statusUpdate');
    const id = (events[0].payload!.value as { id: string }).id;
    const done = await waitFor(async () => {
      const t = await client.getTask({ id, historyLength: undefined, tenant: '' });
      return t.status?.state === TaskState.TASK_STATE_COMPLETED ? t : null;
    });
    expect(artifactText(done, 'result').split('\n').filter(Boolean)).toHaveLength(4);
  });
});

describe('subscribing after the end', () => {
  it('v0.3 tasks/resubscribe on an ended task sends the final snapshot with final:true and closes', async () => {
    const sent = await rpc(`${app.url}/a2a/echo`, 'message/send', { message: { messageId: 'late-1', role: 'user', parts: [{ kind: 'text', text: 'x' }] } });
    const id = sent.body.result.id;
    const res = await fetch(`${app.url}/a2a/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tasks/resubscribe', params: { id } }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const results = sseResults(await res.text());
    expect(results[0]).toMatchObject({ kind: 'task', id, status: { state: 'completed' } });
    expect(results[results.length - 1]).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
  });

  it('v1.0 SubscribeToTask on an ended task answers -32004', async () => {
    const sent = await rpc(`${app.url}/a2a/echo`, 'message/send', { message: { messageId: 'late-2', role: 'user', parts: [{ kind: 'text', text: 'x' }] } });
    const res = await rpc(`${app.url}/a2a/echo`, 'SubscribeToTask', { id: sent.body.result.id }, { 'A2A-Version': '1.0' });
    expect(res.status).toBe(200);
    expect(res.body.error.code).toBe(-32004);
  });
});

describe('callers that go away', () => {
  it('a streaming caller that disconnects mid-stream detaches the task; it still completes and is stored', async () => {
    const controller = new AbortController();
    const res = await fetch(`${app.url}/a2a/slow`, {
      method: 'POST',
      signal: controller.signal,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/stream', params: { message: { messageId: 'dc-1', role: 'user', parts: [{ kind: 'text', text: 'work 1.5s chunks 3' }] } } }),
    });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    const id = sseResults(first)[0].id as string;
    controller.abort();
    const done = await waitFor(async () => {
      const t = await rpc(`${app.url}/a2a/slow`, 'tasks/get', { id });
      return t.body.result.status.state === 'completed' ? t.body.result : null;
    });
    // Appended text is one part: the three chunks are in it.
    expect(done.artifacts[0].parts.map((p: { text: string }) => p.text).join('').match(/chunk \d{5}/g)).toHaveLength(3);
    expect(done.metadata.switchboard.detached).toBe(true);
  });
});

describe('the whole stream is the result', () => {
  it('a 1 MB result in 2,000 chunks: the stream until the window is a prefix, and tasks/get holds it whole', async () => {
    const client = await sdkClient(app.url, 'slow', '1.0');
    const events = await collect(client.sendMessageStream(sendParams('work 4s chunks 2000 size 500')));
    const streamed = streamedArtifactTextFrom(events);
    const id = (events[0].payload!.value as { id: string }).id;
    const done = await waitFor(async () => {
      const t = await client.getTask({ id, historyLength: undefined, tenant: '' });
      return t.status?.state === TaskState.TASK_STATE_COMPLETED ? t : null;
    });
    const whole = artifactText(done, 'result');
    expect(whole.length).toBe(1_000_000);
    const lines = whole.split('\n').filter(Boolean);
    expect(lines).toHaveLength(2000);
    expect(lines[0]).toMatch(/^chunk 00001 /);
    expect(lines[1999]).toMatch(/^chunk 02000 /);
    expect(whole.startsWith(streamed)).toBe(true);
  });
});

function streamedArtifactTextFrom(events: Awaited<ReturnType<typeof collect>>): string {
  return events
    .filter((e) => e.payload?.$case === 'artifactUpdate')
    .map((e) => partsText((e.payload!.value as { artifact: { parts: Parameters<typeof partsText>[0] } }).artifact.parts))
    .join('');
}
