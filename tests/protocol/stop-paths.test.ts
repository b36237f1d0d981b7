/**
 * The hub's launched children end with their tasks whichever way the hub stops. A
 * second SIGTERM during the drain (a process manager's group-wide SIGTERM, an impatient operator)
 * used to hit Node's default action and exit at once, leaving a launched process tree running.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { rpc, waitFor } from '../support/a2a-clients';
import { groupAlive, processGroupOf } from '../support/processes';

let app: AppServer;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-stop-'));
  const fixtures = path.resolve('tests/fixtures/agents');
  const config = { agents: [{ slug: 'stubborn', name: 'Stubborn', launcher: { type: 'process', command: [path.join(fixtures, 'stubborn-tree.mjs'), path.join(dir, 'pids.json'), 'hang'], killGraceMs: 200 } }] };
  fs.writeFileSync(path.join(dir, 'switchboard.json'), JSON.stringify(config));
  // A long drain: only the second signal can make the hub stop within the test's bound.
  app = await startApp({ SWITCHBOARD_CONFIG: path.join(dir, 'switchboard.json'), SWITCHBOARD_DRAIN: '120', SWITCHBOARD_LOG_LEVEL: 'info' }, { dataDir: dir });
});
afterAll(async () => app?.kill());

it('a second SIGTERM during the drain cuts it short, and the launched process tree still ends', async () => {
  const message = { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'x' }] };
  const sent = await rpc(`${app.url}/a2a/stubborn`, 'message/send', { message, configuration: { blocking: false } });
  expect(sent.body.result.status.state).toBe('working');
  const pids = await waitFor(async () => fs.existsSync(path.join(dir, 'pids.json')) && JSON.parse(fs.readFileSync(path.join(dir, 'pids.json'), 'utf8')));
  const pgid = processGroupOf(pids.leader);
  expect(groupAlive(pgid)).toBe(true);

  const firstAt = Date.now();
  app.signal('SIGTERM');
  await waitFor(async () => app.logs().includes('shutdown: draining running tasks'), 10_000);
  // A repeat within a second is the same request (a group's signal, forwarded): ask again later.
  await waitFor(async () => Date.now() - firstAt > 1_200, 5_000, 100);
  app.signal('SIGTERM');
  await app.exited();
  expect(app.logs()).toMatch(/second shutdown signal/);
  await waitFor(async () => !groupAlive(pgid), 5_000);

  // The task ended as interrupted by the shutdown, recorded before the exit.
  await app.restart();
  const got = await rpc(`${app.url}/a2a/stubborn`, 'tasks/get', { id: sent.body.result.id });
  expect(got.body.result.status.state).toBe('failed');
  expect(JSON.stringify(got.body.result.status.message)).toContain('interrupted: shutdown');
}, 60_000);
