/**
 * Real SDK clients (v1.0 transport and v0.3 legacy transport) against a running
 * `next start`, for each built-in agent: send, stream, get, list, cancel, resubscribe.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { artifactText, asTask, collect, lastState, partsText, sdkClient, sendParams, streamedArtifactText, TaskState, waitFor, type SdkVersion } from '../support/a2a-clients';

let app: AppServer;

beforeAll(async () => {
  // Every task here ends well within the window (the window is timing-contract's subject); at 5 s a
  // 2,000-chunk stream on PostgreSQL outlasted it on a loaded machine and detached.
  app = await startApp({ SWITCHBOARD_RESPONSE_WINDOW: '30', SWITCHBOARD_LATE_RESULT_GRACE: '60' });
});
afterAll(async () => app?.stop());

describe.each<SdkVersion>(['1.0', '0.3'])('@a2a-js/sdk client over v%s', (version) => {
  it('echo completes at once with the input text as an artifact', async () => {
    const client = await sdkClient(app.url, 'echo', version);
    const task = asTask(await client.sendMessage(sendParams('hello switchboard')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(task, 'echo')).toBe('hello switchboard');
    expect(partsText(task.history[0]?.parts)).toBe('hello switchboard');
  });

  it('slow streams progress and append:true chunks; the stored task holds every chunk', async () => {
    const client = await sdkClient(app.url, 'slow', version);
    const events = await collect(client.sendMessageStream(sendParams('work 0.4s chunks 6 size 20')));
    expect(events[0].payload?.$case).toBe('task');
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
    const streamed = streamedArtifactText(events);
    expect(streamed.split('\n').filter(Boolean)).toHaveLength(6);
    const id = (events[0].payload!.value as { id: string }).id;
    const stored = await client.getTask({ id, historyLength: undefined, tenant: '' });
    expect(artifactText(stored, 'result')).toBe(streamed);
  });

  it('a 2,000-chunk stream arrives whole, in order, and tasks/get agrees', async () => {
    const client = await sdkClient(app.url, 'slow', version);
    const events = await collect(client.sendMessageStream(sendParams('work 0s chunks 2000 size 500')));
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
    const streamed = streamedArtifactText(events);
    expect(streamed.length).toBe(1_000_000);
    const id = (events[0].payload!.value as { id: string }).id;
    const stored = await client.getTask({ id, historyLength: 0, tenant: '' });
    expect(artifactText(stored, 'result')).toBe(streamed);
  });

  it('tasks/get honours historyLength', async () => {
    const client = await sdkClient(app.url, 'echo', version);
    const task = asTask(await client.sendMessage(sendParams('history please')));
    const none = await client.getTask({ id: task.id, historyLength: 0, tenant: '' });
    expect(none.history).toHaveLength(0);
    const one = await client.getTask({ id: task.id, historyLength: 1, tenant: '' });
    expect(one.history).toHaveLength(1);
  });

  it('cancel ends a running task CANCELED; a second cancel is refused', async () => {
    const client = await sdkClient(app.url, 'slow', version);
    const task = asTask(await client.sendMessage(sendParams('work 30s', { returnImmediately: true })));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    const canceled = await client.cancelTask({ id: task.id, metadata: undefined, tenant: '' });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await expect(client.cancelTask({ id: task.id, metadata: undefined, tenant: '' })).rejects.toThrow(/cancel/i);
  });

  it('resubscribe on a running task sends the snapshot, then events to the end', async () => {
    const client = await sdkClient(app.url, 'slow', version);
    const task = asTask(await client.sendMessage(sendParams('work 1s chunks 4', { returnImmediately: true })));
    const events = await collect(client.resubscribeTask({ id: task.id, tenant: '' }));
    expect(events[0].payload?.$case).toBe('task');
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('budget ends FAILED with the reason when the budget runs out, never COMPLETED', async () => {
    const client = await sdkClient(app.url, 'budget', version);
    const task = asTask(await client.sendMessage(sendParams('steps 5 budget 2 stepMs 10')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(partsText(task.status?.message?.parts)).toContain('iteration budget exhausted');
    expect(artifactText(task, 'steps')).toContain('step 2 of 5 done');
  });

  it('budget completes when the budget suffices', async () => {
    const client = await sdkClient(app.url, 'budget', version);
    const task = asTask(await client.sendMessage(sendParams('steps 2 budget 3 stepMs 10')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('ask asks for input, then completes on the follow-up in the same task', async () => {
    const client = await sdkClient(app.url, 'ask', version);
    const first = asTask(await client.sendMessage(sendParams('greet me')));
    expect(first.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const second = asTask(await client.sendMessage(sendParams('Ada', { taskId: first.id, contextId: first.contextId })));
    expect(second.id).toBe(first.id);
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(second, 'answer')).toBe('Hello, Ada!');
    await expect(client.sendMessage(sendParams('again', { taskId: first.id }))).rejects.toThrow();
  });
});

describe('ListTasks (v1.0)', () => {
  it('pages through an agent’s tasks newest first with a cursor', async () => {
    const client = await sdkClient(app.url, 'budget', '1.0');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(asTask(await client.sendMessage(sendParams('steps 1 budget 1 stepMs 1'))).id);
    const seen: string[] = [];
    let pageToken = '';
    for (;;) {
      const page = await client.listTasks({ tenant: '', contextId: '', status: 0, pageSize: 2, pageToken, historyLength: undefined, statusTimestampAfter: undefined, includeArtifacts: false });
      seen.push(...page.tasks.map((t) => t.id));
      expect(page.tasks.length).toBeLessThanOrEqual(2);
      if (!page.nextPageToken) break;
      pageToken = page.nextPageToken;
    }
    expect(seen.slice(0, 5)).toEqual([...ids].reverse());
  });
});

describe('tasks survive a restart', () => {
  it('returns tasks with their full event log after stop and start', async () => {
    const client = await sdkClient(app.url, 'slow', '1.0');
    const events = await collect(client.sendMessageStream(sendParams('work 0.2s chunks 3')));
    const id = (events[0].payload!.value as { id: string }).id;
    await app.stop();
    await app.restart();
    const again = await sdkClient(app.url, 'slow', '1.0');
    const task = await waitFor(() => again.getTask({ id, historyLength: undefined, tenant: '' }));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(task, 'result').split('\n').filter(Boolean)).toHaveLength(3);
  });
});
