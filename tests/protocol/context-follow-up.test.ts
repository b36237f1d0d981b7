/**
 * A follow-up that carries only a contextId: Hermes cannot send a taskId. A message
 * with a contextId and no taskId answers the caller's one task in that context that asks for
 * input; no new task is created. Against the `ask` agent, over v0.3 and v1.0.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { rpc } from '../support/a2a-clients';

let app: AppServer;

beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => app?.stop());

interface Seen {
  id: string;
  contextId: string;
  state: string;
  text: string;
}

type Wire = { id: string; contextId: string; status: { state: string }; artifacts?: { parts: { text?: string }[] }[] };
const v1 = { 'A2A-Version': '1.0' };

/** One send in the given version; the task it answered with, states in v0.3 spelling. */
async function send(version: '0.3' | '1.0', text: string, ids: { contextId?: string; taskId?: string } = {}): Promise<Seen> {
  const res =
    version === '0.3'
      ? await rpc(`${app.url}/a2a/ask`, 'message/send', { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...ids } })
      : await rpc(`${app.url}/a2a/ask`, 'SendMessage', { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...ids } }, v1);
  const result = res.body.result as Wire & { task?: Wire };
  const task = version === '0.3' ? result : result.task!;
  const state = task.status.state.replace(/^TASK_STATE_/, '').toLowerCase().replace('_', '-');
  const answer = (task.artifacts ?? []).flatMap((a) => a.parts).map((p) => p.text ?? '').join('');
  return { id: task.id, contextId: task.contextId, state, text: answer };
}

async function tasksIn(contextId: string): Promise<string[]> {
  const { body } = await rpc(`${app.url}/a2a/ask`, 'ListTasks', { contextId }, v1);
  return (body.result.tasks as { id: string }[]).map((t) => t.id);
}

describe.each(['0.3', '1.0'] as const)('v%s: a follow-up naming only its context', (version) => {
  it('answers the one task waiting for input there: no new task', async () => {
    const asked = await send(version, 'hello');
    expect(asked.state).toBe('input-required');
    const answered = await send(version, 'Ada', { contextId: asked.contextId });
    expect(answered.id).toBe(asked.id);
    expect(answered.state).toBe('completed');
    expect(answered.text).toBe('Hello, Ada!');
    expect(await tasksIn(asked.contextId)).toEqual([asked.id]);
  });

  it('starts a new task when nothing there waits for input (the task ended)', async () => {
    const asked = await send(version, 'hello');
    await send(version, 'Bea', { contextId: asked.contextId });
    const again = await send(version, 'hello again', { contextId: asked.contextId });
    expect(again.id).not.toBe(asked.id);
    expect(again.contextId).toBe(asked.contextId);
    expect(again.state).toBe('input-required');
  });

  it('an explicit taskId still wins over the waiting task of its context', async () => {
    const first = await send(version, 'first');
    const second = await send(version, 'second', { contextId: `${first.contextId}-other` });
    // The second waits in its own context; naming its id answers it, not the first.
    const answered = await send(version, 'Cy', { taskId: second.id, contextId: second.contextId });
    expect(answered.id).toBe(second.id);
    expect((await send(version, 'Di', { contextId: first.contextId })).id).toBe(first.id);
  });
});
