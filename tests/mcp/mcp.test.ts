/**
 * The MCP server, from outside, with the official SDK's client. A real app (tokens
 * set, response window 1 s) over Streamable HTTP at /mcp and over stdio through the real
 * `switchboard mcp` binary: the tool list per role, a task that outlives the client's request
 * timeout followed with `wait` to its real end (whole result, one task), reply on an `ask`
 * task, cancel, the viewer's refusal, argument errors naming the field, and the HTTP guards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { freePort, startApp, type AppServer } from '../support/app-server';
import { httpMcpClient, stdioMcpClient, structuredOf, textOf, type TaskViewResult } from '../support/mcp-clients';
import type { TaskView } from '../support/dispatch-api';
import { runCli } from '../support/cli';

const OPERATOR = 'mcp-operator-token-0123456789';
const VIEWER = 'mcp-viewer-token-0123456789ab';
const ALL_TOOLS = ['cancel', 'dispatch', 'get_result', 'list_agents', 'list_tasks', 'reply', 'wait'];
const READ_TOOLS = ['get_result', 'list_agents', 'list_tasks', 'wait'];
/** The client gives up on any one request after this; the slow task runs longer. */
const REQUEST_TIMEOUT_MS = 4_000;

let app: AppServer;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_RESPONSE_WINDOW: '1', SWITCHBOARD_OPERATOR_TOKEN: OPERATOR, SWITCHBOARD_VIEWER_TOKEN: VIEWER });
});
afterAll(async () => {
  for (const close of closers) await close().catch(() => undefined);
  await app?.stop();
});

async function http(token: string): Promise<Client> {
  const client = await httpMcpClient(app.url, token);
  closers.push(() => client.close());
  return client;
}

async function stdio(token: string): Promise<Client> {
  const { client } = await stdioMcpClient(app.url, token);
  closers.push(() => client.close());
  return client;
}

async function readTask(taskId: string): Promise<TaskView> {
  const res = await fetch(`${app.url}/api/tasks/${taskId}`, { headers: { Authorization: `Bearer ${OPERATOR}` } });
  return (await res.json()) as TaskView;
}

interface ListedAgent {
  kind: string;
  name: string;
  target: string;
  url: string;
  description: string;
  streaming: boolean | null;
}

const storedResult = (view: TaskView) => (view.snapshot.artifacts ?? []).map((a) => a.parts.map((p) => p.text ?? '').join('')).join('\n');

async function call(client: Client, name: string, args: Record<string, unknown>, onprogress?: (p: { progress: number; message?: string }) => void) {
  return client.callTool({ name, arguments: args }, undefined, { timeout: REQUEST_TIMEOUT_MS, onprogress });
}

/** dispatch with a 1 s hold, then wait with the returned cursor until done: what a model does. */
async function dispatchAndFollow(client: Client, text: string) {
  const progress: string[] = [];
  const first = structuredOf<TaskViewResult>(await call(client, 'dispatch', { target: `${app.url}/a2a/slow`, text, wait_seconds: 1 }));
  let output = first.output;
  let view = first;
  let waits = 0;
  while (!view.done) {
    view = structuredOf<TaskViewResult>(await call(client, 'wait', { taskId: first.taskId, since: view.cursor, seconds: 2 }, (p) => progress.push(p.message ?? '')));
    output += view.output;
    waits++;
  }
  return { first, last: view, output, waits, progress };
}

describe.each([
  ['Streamable HTTP', http],
  ['stdio (switchboard mcp)', stdio],
])('MCP over %s', (_transport, connect) => {
  it('lists every tool to the operator and only the read tools to a viewer', async () => {
    const operator = await connect(OPERATOR);
    expect((await operator.listTools()).tools.map((t) => t.name).sort()).toEqual(ALL_TOOLS);
    const tools = (await operator.listTools()).tools;
    for (const tool of tools) expect(tool.outputSchema, tool.name).toBeDefined();
    const viewer = await connect(VIEWER);
    expect((await viewer.listTools()).tools.map((t) => t.name).sort()).toEqual(READ_TOOLS);
  });

  it('follows a task that outlives the request timeout to its real end with wait: whole result, one task', async () => {
    const client = await connect(OPERATOR);
    const started = Date.now();
    const text = `work 7s chunks 7 size 40 run ${crypto.randomUUID()}`;
    const { first, last, output, waits, progress } = await dispatchAndFollow(client, text);
    expect(Date.now() - started).toBeGreaterThan(REQUEST_TIMEOUT_MS);
    expect(first.done).toBe(false);
    expect(first.next).toContain(`Call wait with {"taskId":"${first.taskId}"`);
    expect(waits).toBeGreaterThan(1);
    expect(last.state).toBe('completed');
    expect(last.next).toContain('completes its result');
    const stored = await readTask(first.taskId);
    expect(stored.task.state).toBe('completed');
    expect(output).toBe(storedResult(stored));
    expect(output.length).toBeGreaterThanOrEqual(7 * 40);
    expect(progress.length).toBeGreaterThan(0);
    // get_result pages the same text.
    const page1 = structuredOf<{ text: string; nextCursor: string | null }>(await call(client, 'get_result', { taskId: first.taskId, maxChars: 100 }));
    expect(page1.text).toBe(output.slice(0, 100));
    const page2 = structuredOf<{ text: string; nextCursor: string | null }>(await call(client, 'get_result', { taskId: first.taskId, cursor: page1.nextCursor }));
    expect(page1.text + page2.text).toBe(output);
    expect(page2.nextCursor).toBeNull();
    // One task: the follow-ups never dispatched again.
    const tasks = structuredOf<{ tasks: { taskId: string; request: string; direction: string }[] }>(await call(client, 'list_tasks', { limit: 100 }));
    expect(tasks.tasks.filter((t) => t.direction === 'outbound' && t.request === text).map((t) => t.taskId)).toEqual([first.taskId]);
  });

  it('reply answers an ask task in the same task', async () => {
    const client = await connect(OPERATOR);
    const asked = structuredOf<TaskViewResult>(await call(client, 'dispatch', { target: `${app.url}/a2a/ask`, text: 'hello', wait_seconds: 3 }));
    expect(asked.needsInput).toBe(true);
    expect(asked.next).toContain(`reply {"taskId":"${asked.taskId}"`);
    const answered = structuredOf<TaskViewResult>(await call(client, 'reply', { taskId: asked.taskId, text: 'Ada', wait_seconds: 3 }));
    expect(answered.taskId).toBe(asked.taskId);
    expect(answered.state).toBe('completed');
  });

  it('cancel cancels a running task', async () => {
    const client = await connect(OPERATOR);
    const started = structuredOf<TaskViewResult>(await call(client, 'dispatch', { target: `${app.url}/a2a/slow`, text: 'work 120s', wait_seconds: 0 }));
    expect(started.done).toBe(false);
    const canceled = structuredOf<{ state: string }>(await call(client, 'cancel', { taskId: started.taskId }));
    expect(canceled.state).toBe('canceled');
    expect((await readTask(started.taskId)).task.state).toBe('canceled');
  });

  it('refuses a viewer dispatch, reply and cancel, and creates nothing', async () => {
    const viewer = await connect(VIEWER);
    const before = structuredOf<{ tasks: unknown[] }>(await call(viewer, 'list_tasks', { limit: 100 })).tasks.length;
    for (const [name, args] of [
      ['dispatch', { target: `${app.url}/a2a/echo`, text: 'hi' }],
      ['reply', { taskId: 'x1', text: 'hi' }],
      ['cancel', { taskId: 'x1' }],
    ] as const) {
      const refused = await viewer.callTool({ name, arguments: args }).catch((err: Error) => ({ isError: true, content: [{ type: 'text', text: err.message }] }));
      expect(refused.isError, name).toBe(true);
      expect(textOf(refused), name).toContain(`Tool ${name} not found`);
    }
    expect(structuredOf<{ tasks: unknown[] }>(await call(viewer, 'list_tasks', { limit: 100 })).tasks.length).toBe(before);
  });

  it('answers bad arguments with a message naming the field', async () => {
    const client = await connect(OPERATOR);
    const cases: [string, Record<string, unknown>, string][] = [
      ['wait', { taskId: 'abc', since: 'yesterday' }, 'since'],
      ['wait', { taskId: 'abc', seconds: 500 }, 'seconds: at most 50'],
      ['dispatch', { target: 'self', text: 'hi', wait_seconds: -1 }, 'wait_seconds: at least 0'],
      ['dispatch', { target: 'self', text: '' }, 'text: expected the text'],
      ['dispatch', { target: 'no-such-peer', text: 'hi' }, 'no-such-peer'],
      ['wait', { taskId: 'no-such-task', seconds: 0 }, 'taskId: no task no-such-task'],
      ['get_result', { taskId: 'a b' }, 'taskId'],
      ['list_tasks', { limit: 1000 }, 'limit: at most 100'],
    ];
    for (const [name, args, message] of cases) {
      const result = await call(client, name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(result), `${name} ${JSON.stringify(args)}`).toContain(message);
    }
  });
});

describe('the /mcp endpoint', () => {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
  const post = (headers: Record<string, string>) =>
    fetch(`${app.url}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(initialize) });

  it('needs a token, refuses a wrong one and a foreign Origin, and answers GET with 405', async () => {
    expect((await post({})).status).toBe(401);
    expect((await post({ Authorization: 'Bearer wrong-token-0123456789abcdef' })).status).toBe(401);
    expect((await post({ Authorization: `Bearer ${OPERATOR}`, Origin: 'https://evil.example' })).status).toBe(403);
    expect((await post({ Authorization: `Bearer ${OPERATOR}` })).status).toBe(200);
    expect((await fetch(`${app.url}/mcp`, { headers: { Authorization: `Bearer ${OPERATOR}` } })).status).toBe(405);
  });

  it('holds bodies to the /api limits: bytes (413), nesting (400), content type (415)', async () => {
    const send = (body: string, type = 'application/json') =>
      fetch(`${app.url}/mcp`, { method: 'POST', headers: { Authorization: `Bearer ${OPERATOR}`, 'Content-Type': type, Accept: 'application/json, text/event-stream' }, body });
    expect((await send(JSON.stringify({ ...initialize, params: { ...initialize.params, pad: 'x'.repeat(300_000) } }))).status).toBe(413);
    const deep = await send(`${'['.repeat(100)}${']'.repeat(100)}`);
    expect(deep.status).toBe(400);
    expect(JSON.stringify(await deep.json())).toContain('nests deeper than 64 levels');
    expect((await send(JSON.stringify(initialize), 'text/plain')).status).toBe(415);
  });

  it('lists the served agents by name and the peers, each with the target dispatch takes', async () => {
    const client = await http(VIEWER);
    const listed = await client.callTool({ name: 'list_agents', arguments: {} });
    const { agents } = structuredOf<{ agents: ListedAgent[] }>(listed);
    expect(agents.find((a) => a.name === 'echo')).toMatchObject({ kind: 'served', target: 'echo', url: `${app.url}/a2a/echo`, streaming: true });
    expect(agents.find((a) => a.name === 'echo')?.description).not.toMatch(/^https?:/);
    expect(agents.find((a) => a.name === 'self')).toMatchObject({ kind: 'peer', target: 'self' });
    // The words a model reads name the agent, not a URL.
    expect(textOf(listed)).toMatch(/^echo \(served\): /m);
    expect(textOf(listed)).not.toContain('/a2a/');
    // Once the peer's card is fetched (a connection test), whether it streams comes from the card.
    const tested = await fetch(`${app.url}/api/peers/self/test`, { method: 'POST', headers: { Authorization: `Bearer ${OPERATOR}` } });
    expect(tested.status).toBe(200);
    const after = structuredOf<{ agents: { name: string; streaming: boolean | null }[] }>(await client.callTool({ name: 'list_agents', arguments: {} }));
    expect(after.agents.find((a) => a.name === 'self')?.streaming).toBe(true);
  });

  it("dispatches to a served agent by the target list_agents gives (its slug), recorded at the agent's URL", async () => {
    const client = await http(OPERATOR);
    const { agents } = structuredOf<{ agents: ListedAgent[] }>(await client.callTool({ name: 'list_agents', arguments: {} }));
    expect(agents.find((a) => a.name === 'echo')?.target).toBe('echo');
    const done = structuredOf<TaskViewResult>(await call(client, 'dispatch', { target: 'echo', text: 'by name', wait_seconds: 3 }));
    expect(done.state).toBe('completed');
    expect(done.output).toContain('by name');
    // The task went to this hub's echo agent: the task it started there is echo's.
    const { task } = await readTask(done.taskId);
    expect(task.peerName).toBeNull();
    expect((await readTask(task.remoteTaskId!)).task.agentSlug).toBe('echo');
  });

  it('a peer named like a served agent keeps the name; the agent is then listed by its URL', async () => {
    const headers = { Authorization: `Bearer ${OPERATOR}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${app.url}/api/peers`, { method: 'POST', headers, body: JSON.stringify({ name: 'slow', url: `${app.url}/a2a/echo` }) });
    expect(created.status).toBe(201);
    try {
      const client = await http(OPERATOR);
      const { agents } = structuredOf<{ agents: ListedAgent[] }>(await client.callTool({ name: 'list_agents', arguments: {} }));
      expect(agents.filter((a) => a.name === 'slow').map((a) => [a.kind, a.target])).toEqual([
        ['served', `${app.url}/a2a/slow`],
        ['peer', 'slow'],
      ]);
      const sent = structuredOf<TaskViewResult>(await call(client, 'dispatch', { target: 'slow', text: 'to the peer', wait_seconds: 3 }));
      expect((await readTask(sent.taskId)).task.peerName).toBe('slow');
    } finally {
      await fetch(`${app.url}/api/peers/slow`, { method: 'DELETE', headers });
    }
  });
});

describe('switchboard mcp', () => {
  it('exits 3 naming the address when no Switchboard answers, and 4 when the token is refused', async () => {
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const unreachable = await runCli(['mcp'], { SWITCHBOARD_URL: nobody });
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toContain(`cannot reach Switchboard at ${nobody}`);
    expect(unreachable.stdout).toBe('');
    const refused = await runCli(['mcp'], { SWITCHBOARD_URL: app.url, SWITCHBOARD_TOKEN: 'wrong-token-0123456789abcdef' });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('SWITCHBOARD_TOKEN was refused');
  });
});
