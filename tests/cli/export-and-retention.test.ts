/**
 * On both stores: `switchboard tasks export` (a viewer token is enough) writes every
 * task with all its events as JSON Lines, read back here: every line parses, its events are the
 * task's whole log (seq 1..lastSeq, artifact chunks whole) and its snapshot is what tasks/get
 * answers; a connection cut mid-page leaves no file. Then a server with
 * SWITCHBOARD_TASK_RETENTION=2 prunes what ended, while a detached task still running and one
 * waiting for input stay; the detached one ends with its artifact and only then goes too.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { rpc, waitFor } from '../support/a2a-clients';
import { runCli } from '../support/cli';
import { compactEvent, TaskExportLineSchema, type TaskDetail, type TaskExportLine } from '../../lib/dashboard/wire';
import { accumulateArtifacts } from '../../lib/protocol/artifacts';
import type { ArtifactChunk } from '../../lib/protocol/types';

const OPERATOR = 'export-operator-token-0123456789';
const VIEWER = 'export-viewer-token-0123456789ab';
const bearer = { Authorization: `Bearer ${VIEWER}` };

const message = (text: string) => ({ message: { messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }] } });

async function send(app: AppServer, agent: string, text: string): Promise<{ id: string; status: { state: string }; metadata?: { switchboard?: { detached?: boolean } } }> {
  const res = await rpc(`${app.url}/a2a/${agent}`, 'message/send', message(text));
  expect(res.body.error).toBeUndefined();
  return res.body.result;
}

async function tasksGet(app: AppServer, agent: string, id: string) {
  return (await rpc(`${app.url}/a2a/${agent}`, 'tasks/get', { id })).body;
}

async function detail(app: AppServer, id: string): Promise<TaskDetail | null> {
  const res = await fetch(`${app.url}/api/tasks/${id}`, { headers: bearer });
  return res.status === 404 ? null : ((await res.json()) as TaskDetail);
}

function readExport(file: string): TaskExportLine[] {
  const text = fs.readFileSync(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => TaskExportLineSchema.parse(JSON.parse(line)));
}

describe('switchboard tasks export', () => {
  let app: AppServer;
  let dir: string;
  const sent: { id: string; agent: string }[] = [];

  beforeAll(async () => {
    app = await startApp({ SWITCHBOARD_OPERATOR_TOKEN: OPERATOR, SWITCHBOARD_VIEWER_TOKEN: VIEWER });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-export-'));
    for (let i = 0; i < 3; i++) sent.push({ id: (await send(app, 'echo', `hello ${i}`)).id, agent: 'echo' });
    sent.push({ id: (await send(app, 'slow', 'work 0s chunks 4')).id, agent: 'slow' }); // one artifact in 4 chunks
    sent.push({ id: (await send(app, 'ask', 'a question')).id, agent: 'ask' }); // input-required
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('writes every task, newest first, each line its whole event log and its tasks/get snapshot', async () => {
    const out = path.join(dir, 'all.jsonl');
    const run = await runCli(['tasks', 'export', '--out', out], { SWITCHBOARD_URL: app.url, SWITCHBOARD_TOKEN: VIEWER });
    expect(run.stderr).toContain(`exported 5 tasks to ${out}\n`);
    expect(run.code).toBe(0);
    expect(fs.existsSync(`${out}.partial`)).toBe(false);
    const lines = readExport(out);
    expect(lines.map((l) => l.task.id)).toEqual(sent.map((s) => s.id).reverse());
    for (const line of lines) {
      const { agent } = sent.find((s) => s.id === line.task.id)!;
      expect(line.events.map((e) => e.seq)).toEqual(Array.from({ length: line.task.lastSeq }, (_, i) => i + 1));
      expect(line.snapshot).toEqual((await tasksGet(app, agent, line.task.id)).result);
      expect(line.events.map(compactEvent)).toEqual((await detail(app, line.task.id))!.events);
      const chunks = line.events.flatMap((e) => (e.type === 'artifact' && !('compacted' in e.payload) ? [e.payload as ArtifactChunk] : []));
      expect(accumulateArtifacts(chunks)).toEqual(line.snapshot.artifacts);
    }
    const streamed = lines.find((l) => l.task.agentSlug === 'slow')!;
    expect(streamed.events.filter((e) => e.type === 'artifact')).toHaveLength(4);
    expect(lines.find((l) => l.task.agentSlug === 'ask')!.task.state).toBe('input-required');
  });

  it('filters by state and time, to stdout', async () => {
    const env = { SWITCHBOARD_URL: app.url, SWITCHBOARD_TOKEN: VIEWER };
    const completed = await runCli(['tasks', 'export', '--state', 'completed'], env);
    expect(completed.code).toBe(0);
    const ids = completed.stdout.trim().split('\n').map((l) => TaskExportLineSchema.parse(JSON.parse(l)).task.id);
    expect(ids.sort()).toEqual(sent.filter((s) => s.agent !== 'ask').map((s) => s.id).sort());
    const future = await runCli(['tasks', 'export', '--since', new Date(Date.now() + 60_000).toISOString()], env);
    expect([future.code, future.stdout, future.stderr]).toEqual([0, '', 'exported 0 tasks\n']);
    const lastDay = await runCli(['tasks', 'export', '--since', '1d', '--state', 'input-required'], env);
    expect(lastDay.stdout.trim().split('\n').map((l) => JSON.parse(l).task.id)).toEqual([sent[4].id]);
  });

  it('pages the API by a cursor header, each page bounded, without gaps or repeats', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: Response = await fetch(`${app.url}/api/tasks/export?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: bearer });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      const lines = (await res.text()).trim().split('\n');
      expect(lines.length).toBeLessThanOrEqual(2);
      seen.push(...lines.map((l) => JSON.parse(l).task.id));
      cursor = res.headers.get('switchboard-next-cursor');
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(sent.map((s) => s.id).reverse());
  });

  it('keeps no file when the connection is cut in the middle of a page, and exits 1', async () => {
    // A server that sends the first real line of a page and then drops the connection.
    const page = await (await fetch(`${app.url}/api/tasks/export`, { headers: bearer })).text();
    const cutter = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/x-ndjson', 'Switchboard-Next-Cursor': 'more' });
      res.write(page.slice(0, page.indexOf('\n') + 20)); // one whole line and the start of the next
      setTimeout(() => res.socket?.destroy(), 50);
    });
    await new Promise<void>((resolve) => cutter.listen(0, '127.0.0.1', resolve));
    try {
      const out = path.join(dir, 'cut.jsonl');
      const run = await runCli(['tasks', 'export', '--out', out, '--url', `http://127.0.0.1:${(cutter.address() as AddressInfo).port}`]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/the export was cut short/);
      expect(fs.existsSync(out)).toBe(false);
      expect(fs.existsSync(`${out}.partial`)).toBe(false);
    } finally {
      cutter.closeAllConnections();
      await new Promise((resolve) => cutter.close(resolve));
    }
  });

  it('refuses bad input naming the field, and a caller without a token', async () => {
    for (const [query, field] of [['since=yesterday', 'since'], ['limit=1001', 'limit'], ['state=done', 'state'], ['cursor=nope', 'cursor']]) {
      const res = await fetch(`${app.url}/api/tasks/export?${query}`, { headers: bearer });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { field?: string } }).error.field).toBe(field);
    }
    expect((await fetch(`${app.url}/api/tasks/export`)).status).toBe(401);
    const badSince = await runCli(['tasks', 'export', '--since', 'last week'], { SWITCHBOARD_URL: app.url, SWITCHBOARD_TOKEN: VIEWER });
    expect(badSince.code).toBe(2);
    expect(badSince.stderr).toMatch(/--since must be an ISO date or time/);
    const noToken = await runCli(['tasks', 'export', '--out', path.join(dir, 'refused.jsonl')], { SWITCHBOARD_URL: app.url });
    expect(noToken.code).toBe(4);
    expect(fs.existsSync(path.join(dir, 'refused.jsonl'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'refused.jsonl.partial'))).toBe(false);
  });

  it('the task list and counts refuse a bad query naming the field; the reads by id answer 404 naming the task', async () => {
    for (const [url, field] of [['/api/tasks?limit=0', 'limit'], ['/api/tasks?state=done', 'state'], ['/api/tasks/counts?direction=sideways', 'direction'], ['/api/tasks/counts?range=ages', 'range']]) {
      const res = await fetch(`${app.url}${url}`, { headers: bearer });
      expect(res.status, url).toBe(400);
      expect(((await res.json()) as { error: { field?: string } }).error.field).toBe(field);
    }
    expect((await fetch(`${app.url}/api/tasks?state=`, { headers: bearer })).status).toBe(200); // an empty value is absent
    for (const read of ['', '/hops', '/notifications']) {
      const res = await fetch(`${app.url}/api/tasks/no-such-task${read}`, { headers: bearer });
      expect(res.status, read).toBe(404);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe('no task no-such-task');
    }
    const found = await fetch(`${app.url}/api/tasks/${(await send(app, 'echo', 'read me')).id}/hops`, { headers: bearer });
    expect(found.status).toBe(200);
    expect(found.headers.get('cache-control')).toBe('no-store');
  });
});

describe('SWITCHBOARD_TASK_RETENTION on a running server', () => {
  let app: AppServer;
  afterAll(async () => {
    await app?.stop();
  });

  it('prunes ended tasks; a detached task is kept while it runs, and one waiting for input stays', async () => {
    app = await startApp({ SWITCHBOARD_TASK_RETENTION: '2', SWITCHBOARD_RESPONSE_WINDOW: '1' });
    const detached = await send(app, 'slow', 'work 8s chunks 2');
    expect(detached.metadata?.switchboard?.detached).toBe(true);
    const waiting = await send(app, 'ask', 'a question');
    expect(waiting.status.state).toBe('input-required');
    const done = await send(app, 'echo', 'soon gone');
    expect(done.status.state).toBe('completed');

    await waitFor(async () => (await tasksGet(app, 'echo', done.id)).error?.code === -32001, 30_000);
    expect((await tasksGet(app, 'slow', detached.id)).result.status.state).toBe('working');
    // It finishes whole (nothing of it was deleted while it ran), and only then is pruned.
    const ended = await waitFor(async () => {
      const task = (await tasksGet(app, 'slow', detached.id)).result;
      return task?.status.state === 'completed' ? task : null;
    }, 30_000);
    expect(ended.artifacts[0].parts.map((p: { text: string }) => p.text).join('')).toMatch(/chunk 00001[\s\S]*chunk 00002/);
    await waitFor(async () => (await tasksGet(app, 'slow', detached.id)).error?.code === -32001, 30_000);
    expect((await tasksGet(app, 'ask', waiting.id)).result.status.state).toBe('input-required');
  });
});
