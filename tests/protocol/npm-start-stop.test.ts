/**
 * Stop paths under `npm start`: SIGTERM to the `npm start` process alone (npm exits without passing it
 * on) used to leave the server serving and its launched children running. scripts/start.mjs now
 * watches the npm process that started it and, when it is gone, stops the server the ordinary
 * way: the drain, the running tasks ended, their process groups reaped (decision 233).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { freePort } from '../support/app-server';
import { freshPgDatabase, testStore } from '../support/postgres';
import { rpc, waitFor } from '../support/a2a-clients';
import { isAlive } from '../fixtures/launcher-test-kit';
import SERVER_NODE_FLAGS from '../../scripts/server-node-flags.json';

const ROOT = path.resolve(import.meta.dirname, '../..');
let npm: ChildProcess | undefined;
let pids: { leader: number; grandchild: number } | undefined;
/** Every npm group and launched tree the tests started: a failed test leaves its own behind. */
const startedGroups: number[] = [];
const startedTrees: number[] = [];

afterAll(() => {
  // Only if a test failed: never leave them behind.
  for (const pid of startedTrees) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  // The group npm led outlives npm: its script and the server stay in it.
  for (const group of startedGroups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // nothing of it is left, as it should be
    }
  }
});

async function serving(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/api/health`)).ok;
  } catch {
    return false;
  }
}

/** `npm start` in a group of its own, serving a config whose agent leaves a process tree hanging. */
async function startUnderNpm(): Promise<{ url: string; dir: string; output: () => string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-npm-stop-'));
  const fixtures = path.join(ROOT, 'tests/fixtures/agents');
  const config = { agents: [{ slug: 'stubborn', name: 'Stubborn', launcher: { type: 'process', command: [path.join(fixtures, 'stubborn-tree.mjs'), path.join(dir, 'pids.json'), 'hang'], killGraceMs: 200 } }] };
  fs.writeFileSync(path.join(dir, 'switchboard.json'), JSON.stringify(config));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const database = testStore() === 'postgresql' ? await freshPgDatabase() : `file:${path.join(dir, 'switchboard.db')}`;
  let output = '';
  npm = spawn('npm', ['start'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: database,
      SWITCHBOARD_SECRET_KEY: 'npm-stop-test-secret-key-0123456789abcdef',
      SWITCHBOARD_CONFIG: path.join(dir, 'switchboard.json'),
      SWITCHBOARD_DRAIN: '1',
      SWITCHBOARD_LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own group, so the test can clean up after a failure
  });
  if (npm.pid) startedGroups.push(npm.pid);
  npm.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  npm.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  await waitFor(() => serving(url), 90_000, 200);
  return { url, dir, output: () => output };
}

/** A task whose launched tree hangs: its pids once it runs. */
async function startHangingTask(url: string, dir: string): Promise<{ leader: number; grandchild: number }> {
  const message = { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'x' }] };
  const sent = await rpc(`${url}/a2a/stubborn`, 'message/send', { message, configuration: { blocking: false } });
  expect(sent.body.result.status.state).toBe('working');
  const found = await waitFor(async () => fs.existsSync(path.join(dir, 'pids.json')) && JSON.parse(fs.readFileSync(path.join(dir, 'pids.json'), 'utf8')));
  startedTrees.push(found.leader, found.grandchild);
  expect(isAlive(found.leader)).toBe(true);
  return found;
}

it('SIGTERM to npm alone stops the server, and the launched tree ends with its task', async () => {
  const { url, dir, output } = await startUnderNpm();
  // The server runs with the V8 flags the bench measures it with (decision 379).
  // (Next renames its process, so its command line is read from the ready line it logs.)
  const ready = output().split('\n').find((line) => line.includes('switchboard ready'));
  for (const flag of SERVER_NODE_FLAGS.flags) expect(ready).toContain(flag);
  pids = await startHangingTask(url, dir);

  const signalledAt = Date.now();
  process.kill(npm!.pid!, 'SIGTERM'); // npm alone, as `kill <npm pid>` does
  await waitFor(async () => !(await serving(url)), 30_000, 100);
  await waitFor(async () => ![pids!.leader, pids!.grandchild].some(isAlive), 10_000);
  expect(output()).toContain('the process that started the server is gone');
  expect(output()).toMatch(/shutdown requested/);
  console.log(`npm SIGTERM → server stopped and tree gone in ${Date.now() - signalledAt} ms`);
}, 180_000);

it('a SIGTERM to the whole npm start group (a process manager) drains once: not cut short', async () => {
  const { url, dir, output } = await startUnderNpm();
  pids = await startHangingTask(url, dir);

  process.kill(-npm!.pid!, 'SIGTERM'); // npm, its script and the server, as systemd or docker do
  await waitFor(async () => !(await serving(url)), 30_000, 100);
  await waitFor(async () => ![pids!.leader, pids!.grandchild].some(isAlive), 10_000);
  expect(output()).toMatch(/shutdown requested/);
  expect(output()).toMatch(/shutdown: draining running tasks/);
  expect(output()).not.toMatch(/second shutdown signal/);
}, 180_000);
