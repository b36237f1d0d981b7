/**
 * Through the real server: `kill -9` of the hub mid-turn. Each launched
 * group leads its own session, so nothing the kernel does ends it; its guardian (decision 234)
 * sees its lifeline from the dead hub close and ends the whole group (leader and grandchild
 * that ignore SIGTERM) within its grace period, for both launcher types and on both providers.
 * The next start finds nothing left to reap and ends the tasks as interrupted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp, type AppServer } from '../support/app-server';
import { rpc, waitFor } from '../support/a2a-clients';
import { isAlive } from '../fixtures/launcher-test-kit';

let app: AppServer;
let dir: string;
const fixtures = path.resolve('tests/fixtures/agents');

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-crash-'));
  const config = {
    agents: [
      {
        slug: 'stubborn',
        name: 'Stubborn process',
        launcher: { type: 'process', command: [path.join(fixtures, 'stubborn-tree.mjs'), path.join(dir, 'process-pids.json'), 'hang'], killGraceMs: 200 },
      },
      {
        slug: 'orphan',
        name: 'Orphan rpc worker',
        launcher: { type: 'rpc', command: [process.execPath, path.join(fixtures, 'rpc-orphan.mjs'), path.join(dir, 'rpc-pids.json')], killGraceMs: 200 },
      },
    ],
  };
  fs.writeFileSync(path.join(dir, 'switchboard.json'), JSON.stringify(config));
  app = await startApp({ SWITCHBOARD_CONFIG: path.join(dir, 'switchboard.json') });
});
afterAll(async () => {
  await app?.stop();
  for (const file of ['process-pids.json', 'rpc-pids.json']) {
    const pids = readPids(file);
    for (const pid of pids ? [pids.leader, pids.grandchild] : []) {
      try {
        process.kill(pid, 'SIGKILL'); // only if the test failed: never leave them behind
      } catch {
        // gone, as it should be
      }
    }
  }
});

function readPids(file: string): { leader: number; grandchild: number } | null {
  const full = path.join(dir, file);
  return fs.existsSync(full) && fs.statSync(full).size > 0 ? JSON.parse(fs.readFileSync(full, 'utf8')) : null;
}

const send = (text: string) => ({
  message: { messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }] },
  configuration: { blocking: false },
});

describe('a hub killed with SIGKILL mid-turn', () => {
  it('ends every process of both launcher types by itself, before any restart; the restart ends the tasks', async () => {
    const processTask = (await rpc(`${app.url}/a2a/stubborn`, 'message/send', send('hang'))).body.result.id as string;
    const rpcTask = (await rpc(`${app.url}/a2a/orphan`, 'message/send', send('hang'))).body.result.id as string;
    const processPids = await waitFor(async () => readPids('process-pids.json'));
    const rpcPids = await waitFor(async () => readPids('rpc-pids.json'));
    const all = [processPids.leader, processPids.grandchild, rpcPids.leader, rpcPids.grandchild];
    expect(all.every(isAlive)).toBe(true);

    const killedAt = Date.now();
    await app.kill();
    // No restart needed: the guardians end their groups (TERM is ignored, so KILL after 200 ms).
    await waitFor(async () => all.every((pid) => !isAlive(pid)), 15_000);
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    console.log(`kill -9 of the hub → launched trees gone in ${Date.now() - killedAt} ms`);

    await app.restart();
    expect(app.logs()).not.toContain('reaped process group');

    for (const [slug, id] of [['stubborn', processTask], ['orphan', rpcTask]]) {
      const task = (await rpc(`${app.url}/a2a/${slug}`, 'tasks/get', { id })).body.result;
      expect(task.status.state).toBe('failed');
      expect(task.metadata.switchboard.endReason).toBe('interrupted: restart');
    }
  });
});
