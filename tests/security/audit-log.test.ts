/**
 * The audit log: operator actions are recorded with who, when, from where, what and the
 * outcome, and shown to operators only. Each action kind goes through its one door: dispatch and
 * reply (dispatchTask), cancel (cancelAsOperator, here from the CLI), peer create/change/delete
 * (the peer registry), API key create/revoke (the `switchboard keys` command on the host).
 * Runs on both providers; no row carries a secret.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { runCli } from '../support/cli';
import { waitFor } from '../support/a2a-clients';
import type { TaskView } from '../support/dispatch-api';
import { httpMcpClient } from '../support/mcp-clients';
import type { AuditEntryWire } from '../../lib/dashboard/audit-wire';

const OPERATOR = 'audit-operator-token-0123456789';
const VIEWER = 'audit-viewer-token-0123456789ab';
const PEER_SECRET = 'peer-bearer-secret-never-logged';
let app: AppServer;
const auth = { Authorization: `Bearer ${OPERATOR}` };

type Entry = AuditEntryWire;

beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_OPERATOR_TOKEN: OPERATOR, SWITCHBOARD_VIEWER_TOKEN: VIEWER });
});
afterAll(async () => app?.stop());

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${app.url}${path}`, { method, headers: { ...auth, 'Content-Type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
}

async function auditLog(): Promise<Entry[]> {
  const res = await api('GET', '/api/audit?limit=200');
  expect(res.status).toBe(200);
  return ((await res.json()) as { entries: Entry[] }).entries;
}

/** The one entry of this action on this target (there must be exactly one). */
async function entryFor(action: string, target: string): Promise<Entry> {
  const rows = (await auditLog()).filter((e) => e.action === action && e.target === target);
  expect(rows).toHaveLength(1);
  return rows[0];
}

async function readTask(taskId: string): Promise<TaskView> {
  return (await (await api('GET', `/api/tasks/${taskId}`)).json()) as TaskView;
}

async function dispatch(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<string> {
  const res = await api('POST', '/api/dispatch', body, headers);
  expect(res.status).toBe(202);
  return ((await res.json()) as { taskId: string }).taskId;
}

const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$|^::1$/;
const tokenActor = { actor: 'operator-token', via: 'token', outcome: 'ok', error: null };

describe('each operator action leaves one audit row', () => {
  it('dispatch and reply: the operator, the API door, the loopback address, the task', async () => {
    const taskId = await dispatch({ url: `${app.url}/a2a/ask`, text: 'hello', mode: 'background' });
    const sent = await entryFor('dispatch', taskId);
    expect(sent).toMatchObject({ ...tokenActor, door: 'api', detail: { mode: 'background', url: app.url } });
    expect(sent.address).toMatch(LOOPBACK);
    expect(Date.now() - Date.parse(sent.at)).toBeLessThan(60_000);

    await waitFor(async () => ((await readTask(taskId)).task.state === 'input-required' ? true : null));
    const res = await api('POST', '/api/dispatch', { taskId, text: 'Ada', mode: 'background' }, { 'X-Switchboard-Client': 'dashboard' });
    expect(res.status).toBe(202);
    expect(await entryFor('reply', taskId)).toMatchObject({ ...tokenActor, door: 'dashboard' });
  });

  it('a forged X-Forwarded-For (or the stamp header itself) does not choose the address: the server records the socket it saw', async () => {
    const forged = { 'X-Forwarded-For': '203.0.113.9', 'X-Switchboard-Remote-Address': '203.0.113.10' };
    const taskId = await dispatch({ url: `${app.url}/a2a/echo`, text: 'hi', mode: 'background' }, forged);
    expect((await entryFor('dispatch', taskId)).address).toMatch(LOOPBACK);
  });

  it('cancel from the CLI: the CLI door; a refused cancel is recorded as refused', async () => {
    const taskId = await dispatch({ url: `${app.url}/a2a/slow`, text: 'work 60s', mode: 'background' });
    await waitFor(async () => ((await readTask(taskId)).task.remoteTaskId ? true : null));
    const run = await runCli(['tasks', 'cancel', taskId, '--json'], { SWITCHBOARD_URL: app.url, SWITCHBOARD_TOKEN: OPERATOR });
    expect(run.code).toBe(0);
    expect(await entryFor('cancel', taskId)).toMatchObject({ ...tokenActor, door: 'cli' });
    expect((await api('POST', `/api/tasks/${taskId}/cancel`)).status).toBe(409);
    const rows = (await auditLog()).filter((e) => e.action === 'cancel' && e.target === taskId);
    expect(rows.map((r) => `${r.outcome}:${r.error ?? ''}`).sort()).toEqual(['ok:', 'refused:not_cancelable']);
  });

  it('MCP tools: the mcp door (a cancel of a task that does not exist is recorded as refused)', async () => {
    const client = await httpMcpClient(app.url, OPERATOR);
    try {
      const result = await client.callTool({ name: 'cancel', arguments: { taskId: 'no-such-task' } });
      expect(result.isError).toBe(true);
    } finally {
      await client.close();
    }
    expect(await entryFor('cancel', 'no-such-task')).toMatchObject({ actor: 'operator-token', via: 'token', door: 'mcp', outcome: 'refused', error: 'not_found' });
  });

  it('peer create, change and delete: the peer, the fields changed, never the secret', async () => {
    const peer = { name: 'audited-peer', url: `${app.url}/a2a/echo`, auth: { type: 'bearer', token: PEER_SECRET } };
    expect((await api('POST', '/api/peers', peer)).status).toBe(201);
    expect((await api('PATCH', '/api/peers/audited-peer', { notes: 'changed', auth: { type: 'bearer', token: `${PEER_SECRET}-2` } })).status).toBe(200);
    expect((await api('DELETE', '/api/peers/audited-peer')).status).toBe(204);
    expect(await entryFor('peer.create', 'audited-peer')).toMatchObject({ ...tokenActor, door: 'api' });
    expect(await entryFor('peer.update', 'audited-peer')).toMatchObject({ ...tokenActor, detail: { fields: 'auth,notes' } });
    expect(await entryFor('peer.delete', 'audited-peer')).toMatchObject(tokenActor);
    expect(JSON.stringify(await auditLog())).not.toContain(PEER_SECRET);
  });

  it('API key create and revoke on the host: the OS user, via cli, no address, never the key', async () => {
    const env = { DATABASE_URL: app.env.DATABASE_URL, SWITCHBOARD_SECRET_KEY: app.env.SWITCHBOARD_SECRET_KEY, SWITCHBOARD_LOG_LEVEL: 'warn' };
    const created = await runCli(['keys', 'create', 'audited-key', '--json'], env);
    expect(created.code).toBe(0);
    const { key, id } = JSON.parse(created.stdout) as { key: string; id: string };
    expect((await runCli(['keys', 'revoke', id, '--json'], env)).code).toBe(0);
    const made = await entryFor('key.create', id);
    expect(made).toMatchObject({ via: 'cli', door: 'cli', address: null, outcome: 'ok', detail: { name: 'audited-key', role: 'agent' } });
    expect(made.actor.length).toBeGreaterThan(0);
    expect(await entryFor('key.revoke', id)).toMatchObject({ via: 'cli', outcome: 'ok' });
    expect(JSON.stringify(await auditLog())).not.toContain(key);
  });
});

describe('the audit log is for operators', () => {
  it('a viewer gets 403 and an anonymous caller 401', async () => {
    expect((await fetch(`${app.url}/api/audit`, { headers: { Authorization: `Bearer ${VIEWER}` } })).status).toBe(403);
    expect((await fetch(`${app.url}/api/audit`)).status).toBe(401);
  });

  it('pages newest first with a cursor; a bad cursor or limit is a 400 naming the field', async () => {
    const first = (await (await api('GET', '/api/audit?limit=2')).json()) as { entries: Entry[]; nextCursor: string };
    expect(first.entries).toHaveLength(2);
    expect(first.entries[0].at >= first.entries[1].at).toBe(true);
    const second = (await (await api('GET', `/api/audit?limit=2&cursor=${first.nextCursor}`)).json()) as { entries: Entry[] };
    expect(second.entries[0].at <= first.entries[1].at).toBe(true);
    expect(second.entries.map((e) => e.id)).not.toContain(first.entries[1].id);
    const bad = await api('GET', '/api/audit?cursor=nope');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { field: 'cursor' } });
    expect((await api('GET', '/api/audit?limit=500')).status).toBe(400);
  });

  it('`switchboard audit` prints the log for an operator and is refused for a viewer', async () => {
    const run = await runCli(['audit', '--json', '--limit', '5'], { SWITCHBOARD_URL: app.url, SWITCHBOARD_TOKEN: OPERATOR });
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { entries: Entry[] }).entries.length).toBe(5);
    const table = await runCli(['audit'], { SWITCHBOARD_URL: app.url, SWITCHBOARD_TOKEN: OPERATOR });
    expect(table.stdout).toMatch(/^AT\s+ACTION\s+TARGET\s+WHO/);
    expect(table.stdout).toMatch(/peer\.delete\s+audited-peer\s+operator-token/);
    const viewer = await runCli(['audit'], { SWITCHBOARD_URL: app.url, SWITCHBOARD_TOKEN: VIEWER });
    expect(viewer.code).not.toBe(0);
  });
});
