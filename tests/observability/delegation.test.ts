/**
 * The delegation graph. A launched agent gets the hub's dispatch address, a scoped
 * token and its task id; its dispatch is recorded as a child of its task, and the peer task that
 * dispatch reaches (a Switchboard: here the same hub) names it as parent, so the page has the
 * tree A → dispatch → B. A tampered token, or one whose task has ended, is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp, type AppServer } from '../support/app-server';
import { rpc } from '../support/a2a-clients';
import { readTask } from '../support/dispatch-api';

let app: AppServer;
const fixture = path.resolve('tests/fixtures/agents/delegate.mjs');

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-delegate-'));
  const config = {
    agents: [
      { slug: 'delegator', name: 'Delegator', launcher: { type: 'process', command: [fixture, '-'] } },
      { slug: 'forger', name: 'Forger', launcher: { type: 'process', command: [fixture, '-', 'forge'] } },
      { slug: 'env', name: 'Env', launcher: { type: 'process', command: [path.resolve('tests/fixtures/agents/print-env.mjs')] } },
      { slug: 'rpc-delegator', name: 'RPC delegator', launcher: { type: 'rpc', command: [process.execPath, path.resolve('tests/fixtures/agents/rpc-delegate.mjs')], killGraceMs: 200 } },
    ],
  };
  fs.writeFileSync(path.join(dir, 'switchboard.json'), JSON.stringify(config));
  app = await startApp({ SWITCHBOARD_CONFIG: path.join(dir, 'switchboard.json'), SWITCHBOARD_RESPONSE_WINDOW: '30' });
});
afterAll(async () => app?.stop());

const send = (text: string) => ({ message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }] } });
const replyText = (result: { status: { message?: { parts: { text?: string }[] } } }) => result.status.message?.parts.map((p) => p.text ?? '').join('') ?? '';

interface GraphView {
  task: { id: string; state: string; parentTaskId: string | null; remoteTaskId: string | null };
  children: { id: string; state: string; direction: string; remoteTaskId: string | null }[];
}
const view = async (id: string) => (await readTask(app.url, id)) as unknown as GraphView;

describe('delegation graph', () => {
  it('a launched process gets the dispatch address, a scoped token and its task id', async () => {
    const res = await rpc(`${app.url}/a2a/env`, 'message/send', send('show'));
    const report = JSON.parse(replyText(res.body.result)) as { env: Record<string, string> };
    expect(report.env.SWITCHBOARD_TASK_ID).toBe(res.body.result.id);
    expect(report.env.SWITCHBOARD_DISPATCH_URL).toBe(`${app.url}/api/dispatch`);
    expect(report.env.SWITCHBOARD_DISPATCH_TOKEN).toMatch(new RegExp(`^sbd1\\.${res.body.result.id}\\.\\d+\\.`));
    // Its task has ended: the token is no longer valid.
    const late = await fetch(`${app.url}/api/dispatch`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${report.env.SWITCHBOARD_DISPATCH_TOKEN}` },
      body: JSON.stringify({ url: `${app.url}/a2a/echo`, text: 'too late' }),
    });
    expect(late.status).toBe(403);
  });

  it("a launched agent's dispatch is its task's child, and the peer task names that dispatch as parent", async () => {
    const res = await rpc(`${app.url}/a2a/delegator`, 'message/send', send('go'));
    expect(res.body.result.status.state).toBe('completed');
    const parentId = res.body.result.id as string;
    const [, childId, childState] = /^child (\S+) (\S+)/.exec(replyText(res.body.result))!;
    expect(childState).toBe('completed');
    const child = await view(childId);
    expect(child.task.parentTaskId).toBe(parentId);
    const parent = await view(parentId);
    expect(parent.children.map((c) => c.id)).toEqual([childId]);
    expect(parent.children[0]).toMatchObject({ direction: 'outbound', state: 'completed' });
    // The hop: the peer's task (B) records the dispatch as its parent.
    const hop = await view(child.task.remoteTaskId!);
    expect(hop.task.parentTaskId).toBe(childId);
    expect(child.children.map((c) => c.id)).toContain(child.task.remoteTaskId);
  });

  it('an rpc worker gets the delegation variables per turn in its prompt frame, not in its environment', async () => {
    const first = await rpc(`${app.url}/a2a/rpc-delegator`, 'message/send', send('one'));
    const contextId = first.body.result.contextId as string;
    const again = { message: { ...send('two').message, contextId } };
    const second = await rpc(`${app.url}/a2a/rpc-delegator`, 'message/send', again);
    const turns = [first, second].map((r) => {
      const [, childId, state, pid, envToken, forTask] = /^child (\S+) (\S+) pid (\d+) env-token (\S+) for (\S+)$/.exec(replyText(r.body.result))!;
      return { taskId: r.body.result.id as string, childId, state, pid, envToken, forTask };
    });
    // One long-lived worker served both turns, each with its own task's token.
    expect(turns[0].pid).toBe(turns[1].pid);
    expect(turns[0].taskId).not.toBe(turns[1].taskId);
    for (const t of turns) {
      expect(t).toMatchObject({ state: 'completed', envToken: 'no', forTask: t.taskId });
      expect((await view(t.childId)).task.parentTaskId).toBe(t.taskId);
    }
  });

  it('a tampered token is refused with 401', async () => {
    const res = await rpc(`${app.url}/a2a/forger`, 'message/send', send('go'));
    expect(replyText(res.body.result)).toContain('refused 401 unauthenticated');
  });

  it('an operator dispatch naming an unknown parent is a 400 naming the field', async () => {
    const res = await fetch(`${app.url}/api/dispatch`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ url: `${app.url}/a2a/echo`, text: 'x', parentTaskId: 'nope' }) });
    expect(res.status).toBe(400);
    expect((await res.json()).error.field).toBe('parentTaskId');
  });
});
