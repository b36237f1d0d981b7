/**
 * Subscribing to a task that waits for input keeps the stream open until the task
 * is terminal (v1.0 §3.1.6; v0.3 alike, decision 160). The caller subscribes to an `ask` task,
 * answers it, and the subscription carries the answer's turn to its completion — on JSON-RPC
 * v0.3 and v1.0 and on HTTP+JSON, with the a2a-js 1.3.0 clients.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';
import type { StreamResponse } from '@a2a-js/sdk';
import { startApp, type AppServer } from '../support/app-server';
import { asTask, lastState, sdkClient, sendParams, TaskState, waitFor, type SdkClient } from '../support/a2a-clients';

let app: AppServer;

beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_RESPONSE_WINDOW: '10' });
});
afterAll(async () => app?.stop());

async function restClient(): Promise<SdkClient> {
  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: ['HTTP+JSON'] }));
  const client = await factory.createFromUrl(`${app.url}/a2a/ask/`);
  expect(client.transport.protocolName).toBe('HTTP+JSON');
  return client.transport;
}

const BINDINGS: [string, () => Promise<SdkClient>][] = [
  ['JSON-RPC v0.3 tasks/resubscribe', () => sdkClient(app.url, 'ask', '0.3')],
  ['JSON-RPC v1.0 SubscribeToTask', () => sdkClient(app.url, 'ask', '1.0')],
  ['HTTP+JSON v1.0 :subscribe', restClient],
];

describe('subscribing to a task waiting for input', () => {
  it.each(BINDINGS)('%s: stays open, and carries the answer to the completion', async (_name, connect) => {
    const client = await connect();
    const asked = asTask(await client.sendMessage(sendParams('greet me')));
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);

    const events: StreamResponse[] = [];
    let closedAt: 'before answer' | 'after answer' | null = null;
    let answered = false;
    const reading = (async () => {
      for await (const event of client.resubscribeTask({ id: asked.id, tenant: '' })) events.push(event);
      closedAt = answered ? 'after answer' : 'before answer';
    })();
    await waitFor(async () => events.length > 0);
    expect(closedAt).toBeNull();

    answered = true;
    const done = asTask(await client.sendMessage(sendParams('Ada', { taskId: asked.id, contextId: asked.contextId })));
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await reading;
    expect(closedAt).toBe('after answer');
    expect(events[0].payload?.$case).toBe('task');
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
    const artifactText = events.flatMap((e) => (e.payload?.$case === 'artifactUpdate' ? e.payload.value.artifact?.parts ?? [] : [])).map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
    expect(artifactText).toBe('Hello, Ada!');
  });
});
