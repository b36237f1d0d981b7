/**
 * Through the real server: agents declared in SWITCHBOARD_CONFIG are served at their
 * own route with their own card; an invalid entry is reported by key and left out while the
 * others are served; a launched agent past the window detaches and its late result is recorded;
 * tasks/cancel kills its process tree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp, type AppServer } from '../support/app-server';
import { rpc, sseResults, waitFor } from '../support/a2a-clients';
import { groupAlive, processGroupOf } from '../support/processes';

let app: AppServer;
let dir: string;
const fixtures = path.resolve('tests/fixtures/agents');

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-launch-'));
  const config = {
    agents: [
      {
        slug: 'sleeper',
        name: 'Sleeper',
        description: 'Sleeps, then answers.',
        launcher: { type: 'process', command: [path.join(fixtures, 'sleep-then-answer.mjs'), '1500', 'late', 'answer', 'for', '{prompt}'] },
      },
      {
        slug: 'stubborn',
        name: 'Stubborn',
        launcher: { type: 'process', command: [path.join(fixtures, 'stubborn-tree.mjs'), path.join(dir, 'pids.json'), 'hang'], killGraceMs: 200 },
      },
      { slug: 'broken', name: 'Broken', launcher: { type: 'process', command: ['x'], pass_env: ['HOME'] } },
      {
        slug: 'worker',
        name: 'Worker',
        launcher: { type: 'rpc', command: [process.execPath, path.resolve('examples/rpc-worker/worker.mjs')] },
      },
      { slug: 'nowhere', name: 'Nowhere', launcher: { type: 'process', command: ['x'], cwd: '/nonexistent/agent-dir' } },
    ],
  };
  fs.writeFileSync(path.join(dir, 'switchboard.json'), JSON.stringify(config));
  app = await startApp({ SWITCHBOARD_CONFIG: path.join(dir, 'switchboard.json'), SWITCHBOARD_RESPONSE_WINDOW: '0.5', SWITCHBOARD_LOG_LEVEL: 'error' });
});
afterAll(async () => app?.stop());

const send = (text: string, blocking = true) => ({
  message: { messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }] },
  configuration: { blocking },
});

describe('served launched agents', () => {
  it('an invalid agent is left out with an error naming the key; the others are served with their own card', async () => {
    expect(app.logs()).toMatch(/agents\[2\] \\?"broken\\?": launcher: unknown key \\?"pass_env/);
    const broken = await fetch(`${app.url}/a2a/broken/.well-known/agent-card.json`);
    expect(broken.status).toBe(404);
    const card = await (await fetch(`${app.url}/a2a/sleeper/.well-known/agent-card.json`)).json();
    expect(card).toMatchObject({ name: 'Sleeper', url: `${app.url}/a2a/sleeper` });
  });

  it('GET /api/status names each config error by file, entry and key; /api/health stays ok', async () => {
    const status = await (await fetch(`${app.url}/api/status`)).json();
    const file = path.join(dir, 'switchboard.json');
    expect(status.ok).toBe(false);
    expect(status.agents).toEqual(expect.arrayContaining(['sleeper', 'stubborn', 'worker']));
    expect(status.agents).not.toContain('broken');
    expect(status.configErrors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file, entry: 'agents[2] "broken"', key: 'launcher', message: expect.stringContaining('unknown key "pass_env"') }),
        expect.objectContaining({ file, entry: 'agents "nowhere"', key: 'launcher.cwd', message: 'directory not found: /nonexistent/agent-dir' }),
      ]),
    );
    expect(await (await fetch(`${app.url}/api/health`)).json()).toMatchObject({ ok: true }); // PostgreSQL adds its store fields
  });

  it('a process agent that runs past the window detaches, then its late result is recorded', async () => {
    const sent = await rpc(`${app.url}/a2a/sleeper`, 'message/send', send('hello'));
    expect(sent.body.result.status.state).toBe('working');
    expect(sent.body.result.metadata.switchboard.detached).toBe(true);
    const done = await waitFor(async () => {
      const t = (await rpc(`${app.url}/a2a/sleeper`, 'tasks/get', { id: sent.body.result.id })).body.result;
      return t.status.state === 'completed' ? t : null;
    });
    expect(JSON.stringify(done.status.message)).toContain('late answer for hello');
  });

  it('tasks/cancel ends the task CANCELED and leaves no process of its group', async () => {
    const sent = await rpc(`${app.url}/a2a/stubborn`, 'message/send', send('x', false));
    const pids = await waitFor(async () => fs.existsSync(path.join(dir, 'pids.json')) && JSON.parse(fs.readFileSync(path.join(dir, 'pids.json'), 'utf8')));
    const pgid = processGroupOf(pids.leader);
    expect(groupAlive(pgid)).toBe(true);
    const canceled = await rpc(`${app.url}/a2a/stubborn`, 'tasks/cancel', { id: sent.body.result.id });
    expect(canceled.body.result.status.state).toBe('canceled');
    await waitFor(async () => !groupAlive(pgid), 10_000);
  });

  it('an rpc worker streams chunks through message/stream and the task holds them all', async () => {
    const res = await fetch(`${app.url}/a2a/worker`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/stream', params: send('stream 5') }) });
    const results = sseResults(await res.text());
    const last = results[results.length - 1] as { status?: { state: string }; final?: boolean };
    expect(last).toMatchObject({ final: true, status: { state: 'completed' } });
    const id = (results[0] as { id: string }).id;
    const task = (await rpc(`${app.url}/a2a/worker`, 'tasks/get', { id })).body.result;
    const text = task.artifacts.flatMap((a: { parts: { text: string }[] }) => a.parts.map((p) => p.text)).join('');
    expect(text.split('\n').filter(Boolean)).toHaveLength(5);
  });
});
