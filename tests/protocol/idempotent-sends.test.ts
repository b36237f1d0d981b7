/**
 * A send repeated with the same messageId by the same caller to the same agent (a
 * client retrying after a timeout) answers with the task the first one created, never a second
 * one, on both versions and both bindings, blocking, non-blocking and streaming; for
 * SWITCHBOARD_SEND_DEDUP_WINDOW (here 5 s), after which the id is forgotten.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { rpc, sseResults, waitFor } from '../support/a2a-clients';

const V10 = { 'A2A-Version': '1.0' };
let app: AppServer;

beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_SEND_DEDUP_WINDOW: '5' });
});
afterAll(async () => app?.stop());

const v03 = (messageId: string, text = 'hello') => ({ message: { kind: 'message', messageId, role: 'user', parts: [{ kind: 'text', text }] } });
const v10 = (messageId: string, text = 'hello', extra: Record<string, unknown> = {}) => ({ message: { messageId, role: 'ROLE_USER', parts: [{ text }] }, ...extra });

async function taskCount(slug: string): Promise<number> {
  return (await rpc(`${app.url}/a2a/${slug}`, 'ListTasks', { pageSize: 100 }, V10)).body.result.tasks.length;
}

describe('a repeated messageId', () => {
  it('JSON-RPC v0.3 and v1.0, HTTP+JSON: the same task, and no second one', async () => {
    const before = await taskCount('echo');
    const id = crypto.randomUUID();
    const first = (await rpc(`${app.url}/a2a/echo`, 'message/send', v03(id))).body.result;
    expect(first.status.state).toBe('completed');
    const again = (await rpc(`${app.url}/a2a/echo`, 'message/send', v03(id))).body.result;
    const now = (await rpc(`${app.url}/a2a/echo`, 'SendMessage', v10(id), V10)).body.result.task;
    const rest = await (await fetch(`${app.url}/a2a/echo/message:send`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...V10 }, body: JSON.stringify(v10(id)) })).json();
    const streamed = sseResults((await rpc(`${app.url}/a2a/echo`, 'message/stream', v03(id))).text);
    expect([again.id, now.id, rest.task.id, streamed[0].id]).toEqual([first.id, first.id, first.id, first.id]);
    expect(again.artifacts).toEqual(first.artifacts);
    expect(await taskCount('echo')).toBe(before + 1);
  });

  it('a blocking retry of a running send waits for the turn the first one started', async () => {
    const id = crypto.randomUUID();
    const started = (await rpc(`${app.url}/a2a/slow`, 'SendMessage', v10(id, 'work 1s chunks 2', { configuration: { returnImmediately: true } }), V10)).body.result.task;
    expect(started.status.state).toBe('TASK_STATE_WORKING');
    const retried = (await rpc(`${app.url}/a2a/slow`, 'SendMessage', v10(id, 'work 1s chunks 2'), V10)).body.result.task;
    expect(retried.id).toBe(started.id);
    expect(retried.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('is per agent: the same id to another agent is a new task', async () => {
    const id = crypto.randomUUID();
    const echo = (await rpc(`${app.url}/a2a/echo`, 'message/send', v03(id))).body.result;
    const ask = (await rpc(`${app.url}/a2a/ask`, 'message/send', v03(id))).body.result;
    expect(ask.id).not.toBe(echo.id);
    expect(ask.status.state).toBe('input-required');
  });

  it('is forgotten after the window: then the same id makes a new task', async () => {
    const id = crypto.randomUUID();
    const first = (await rpc(`${app.url}/a2a/echo`, 'message/send', v03(id))).body.result;
    const later = await waitFor(async () => {
      const task = (await rpc(`${app.url}/a2a/echo`, 'message/send', v03(id))).body.result;
      return task.id !== first.id ? task : null;
    }, 30_000, 250);
    expect(later.status.state).toBe('completed');
  });
});
