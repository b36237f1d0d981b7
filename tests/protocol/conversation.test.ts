/**
 * Through the real server: direct-message replies in both wire versions (send and
 * stream) with the record kept for the dashboard; the conversation reaching a fresh worker after
 * an idle close and after a restart; input-required answered as the next turn; a process
 * agent's session resumed after a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp, type AppServer } from '../support/app-server';
import { rpc, sseResults, waitFor } from '../support/a2a-clients';
import { readTask } from '../support/dispatch-api';
import { isAlive } from '../fixtures/launcher-test-kit';

let app: AppServer;
const fixtures = path.resolve('tests/fixtures/agents');

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-conversation-'));
  const config = {
    agents: [
      {
        slug: 'frames',
        name: 'Frame echo',
        launcher: { type: 'rpc', command: [process.execPath, path.join(fixtures, 'rpc-frame-echo.mjs')], idleTimeoutSeconds: 0.5, killGraceMs: 200 },
      },
      {
        slug: 'quiet',
        name: 'Quiet worker',
        responseWindowSeconds: 0.5,
        launcher: { type: 'rpc', command: [process.execPath, path.resolve('examples/rpc-worker/worker.mjs')], killGraceMs: 200 },
      },
      {
        slug: 'sessions',
        name: 'Resumable CLI',
        launcher: {
          type: 'process',
          command: [process.execPath, path.join(fixtures, 'session-agent.mjs'), '{prompt}'],
          resume: [process.execPath, path.join(fixtures, 'session-agent.mjs'), '--resume', '{session_id}', '{prompt}'],
          output: { format: 'json', replyField: 'result.text', sessionIdField: 'session_id' },
        },
      },
    ],
  };
  fs.writeFileSync(path.join(dir, 'switchboard.json'), JSON.stringify(config));
  app = await startApp({ SWITCHBOARD_CONFIG: path.join(dir, 'switchboard.json') });
});
afterAll(async () => app?.stop());

const v03 = (text: string, extra: Record<string, unknown> = {}) => ({
  message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...extra },
});
const v10 = (text: string) => ({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] } });

async function stream(slug: string, method: string, params: unknown): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${app.url}/a2a/${slug}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return sseResults(await res.text());
}

interface EchoedFrame {
  turn: number;
  messageId: string;
  history: { role: string; taskId: string; parts: { kind: string; text?: string; data?: unknown }[] }[];
  historyTruncated: boolean;
}
type V03Task = { id: string; contextId: string; status: { state: string; message: { parts: { kind: string; text?: string; data?: { frame: EchoedFrame; pid: number } }[] } } };

async function echo(text: string, extra: Record<string, unknown> = {}): Promise<{ task: V03Task; frame: EchoedFrame; pid: number }> {
  const task = (await rpc(`${app.url}/a2a/frames`, 'message/send', v03(text, extra))).body.result as V03Task;
  const data = task.status.message.parts[0].data!;
  return { task, frame: data.frame, pid: data.pid };
}

const said = (frame: EchoedFrame) => frame.history.map((m) => `${m.role}:${m.parts.map((p) => p.text ?? (p.data ? 'data' : '')).join('')}`);

describe('direct-message replies', () => {
  it('v0.3 message/send answers with a Message (no task id); the task is kept, completed, for the dashboard', async () => {
    const contextId = crypto.randomUUID();
    const { body } = await rpc(`${app.url}/a2a/frames`, 'message/send', v03('message me', { contextId }));
    expect(body.result).toMatchObject({ kind: 'message', role: 'agent', contextId, parts: [{ kind: 'text', text: 'direct: message me' }], metadata: { direct: true } });
    expect(body.result.taskId).toBeUndefined();
    const list = await (await fetch(`${app.url}/api/tasks?agent=frames&limit=200`)).json();
    const summary = list.tasks.find((t: { contextId: string }) => t.contextId === contextId);
    const view = await readTask(app.url, summary.id);
    expect(view.task.state).toBe('completed');
    const end = view.events.find((e) => e.type === 'status' && e.state === 'completed')!;
    expect(end.payload).toMatchObject({ reply: 'message', message: { messageId: body.result.messageId } });
  });

  it('v1.0 SendMessage answers with {message} in the v1.0 shape', async () => {
    const { body } = await rpc(`${app.url}/a2a/frames`, 'SendMessage', v10('message me too'), { 'A2A-Version': '1.0' });
    expect(body.result.task).toBeUndefined();
    expect(body.result.message).toMatchObject({ role: 'ROLE_AGENT', parts: [{ text: 'direct: message me too' }] });
  });

  it('a stream whose turn answers with a message carries only that Message, in both versions', async () => {
    const old = await stream('frames', 'message/stream', v03('message streamed'));
    expect(old).toHaveLength(1);
    expect(old[0]).toMatchObject({ kind: 'message', role: 'agent', parts: [{ text: 'direct: message streamed' }] });
    const current = await stream('frames', 'SendStreamingMessage', v10('message streamed'));
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({ message: { role: 'ROLE_AGENT', parts: [{ text: 'direct: message streamed' }] } });
  });

  it('answering an input-required task with a direct message completes the task the caller holds', async () => {
    const asked = (await rpc(`${app.url}/a2a/frames`, 'message/send', v03('ask first'))).body.result as V03Task;
    expect(asked.status.state).toBe('input-required');
    const { body } = await rpc(`${app.url}/a2a/frames`, 'message/send', v03('message after all', { taskId: asked.id, contextId: asked.contextId }));
    expect(body.result).toMatchObject({ kind: 'task', id: asked.id, status: { state: 'completed', message: { parts: [{ text: 'direct: message after all' }] } } });
    const view = await readTask(app.url, asked.id);
    expect(view.events.some((e) => (e.payload as { reply?: string } | null)?.reply === 'message')).toBe(false);
  });

  it('the same answer naming only the context completes that task too, answered as the task', async () => {
    const asked = (await rpc(`${app.url}/a2a/frames`, 'message/send', v03('ask first'))).body.result as V03Task;
    expect(asked.status.state).toBe('input-required');
    const { body } = await rpc(`${app.url}/a2a/frames`, 'message/send', v03('message after all', { contextId: asked.contextId }));
    expect(body.result).toMatchObject({ kind: 'task', id: asked.id, status: { state: 'completed', message: { parts: [{ text: 'direct: message after all' }] } } });
  });

  it('a stream whose worker says nothing within the window still gets the task, then the detach status', async () => {
    const events = await stream('quiet', 'message/stream', v03('stream 1 3000')); // first chunk after 3 s
    expect(events.map((e) => e.kind)).toEqual(['task', 'status-update']);
    expect(events[1]).toMatchObject({ status: { state: 'working' }, metadata: { switchboard: { detached: true } } });
  });

  it('a stream whose turn ends as a task still begins with the task', async () => {
    const events = await stream('frames', 'message/stream', v03('artifact please'));
    expect(events[0]).toMatchObject({ kind: 'task' });
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
  });
});

describe('the conversation reaches a fresh worker', () => {
  it('after an idle close, after a restart, and across input-required', async () => {
    const contextId = crypto.randomUUID();
    const first = await echo('hello one', { contextId });
    expect(first.frame).toMatchObject({ turn: 1, history: [], historyTruncated: false });

    await waitFor(async () => !isAlive(first.pid)); // idle for 0.5 s: the worker was closed
    const second = await echo('hello two', { contextId });
    expect(second.pid).not.toBe(first.pid);
    expect(said(second.frame)).toEqual(['user:hello one', 'agent:data']);

    const asked = (await rpc(`${app.url}/a2a/frames`, 'message/send', v03('ask now', { contextId }))).body.result as V03Task;
    expect(asked.status.state).toBe('input-required');

    await app.stop();
    await app.restart();
    const answered = await echo('the blue one', { contextId, taskId: asked.id });
    expect(answered.frame.turn).toBe(2);
    expect(said(answered.frame)).toEqual(['user:hello one', 'agent:data', 'user:hello two', 'agent:data', 'user:ask now', 'agent:which one?']);
  });
});

describe('process sessions', () => {
  it('resume after a restart: the session id is kept in the database', async () => {
    const contextId = crypto.randomUUID();
    const reply = async (text: string) => {
      const task = (await rpc(`${app.url}/a2a/sessions`, 'message/send', v03(text, { contextId }))).body.result as V03Task;
      return task.status.message.parts[0].text!;
    };
    const session = /^new (sess-\S+): one$/.exec(await reply('one'))?.[1];
    expect(session).toBeDefined();
    await app.kill();
    await app.restart();
    expect(await reply('two')).toBe(`resumed ${session}: two`);
  });
});
