/**
 * Through the real server: examples/hermes.yaml as SWITCHBOARD_CONFIG, with the
 * stand-in `hermes` (tests/fixtures/agent-clis/hermes) first on PATH. A conversation resumes its
 * Hermes session across turns and across a restart of the Switchboard; a run Hermes reports as
 * not completed is FAILED over A2A with Hermes's reason; no result file is left behind.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { rpc } from '../support/a2a-clients';

let app: AppServer;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-hermes-kit-'));
  fs.mkdirSync(path.join(dir, 'tmp'));
  app = await startApp({
    SWITCHBOARD_CONFIG: path.resolve('examples/hermes.yaml'),
    PATH: `${path.resolve('tests/fixtures/agent-clis')}:${process.env.PATH}`,
    HERMES_HOME: path.join(dir, 'hermes-home'),
    // The hub's own temporary directory, so the test can see that no result file outlives its turn.
    TMPDIR: path.join(dir, 'tmp'),
    SWITCHBOARD_LOG_LEVEL: 'error',
  });
});
afterAll(async () => {
  await app?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function say(contextId: string, text: string) {
  const sent = await rpc(`${app.url}/a2a/hermes`, 'message/send', { message: { messageId: crypto.randomUUID(), role: 'user', contextId, parts: [{ kind: 'text', text }] } });
  const task = sent.body.result as { status: { state: string; message?: unknown }; artifacts?: unknown[] };
  return { state: task.status.state, text: JSON.stringify([task.status.message, task.artifacts]) };
}

describe('examples/hermes.yaml served by Switchboard', () => {
  it('resumes the Hermes session on later turns of a context, also after a restart', async () => {
    const first = await say('ctx-kit-1', 'find the flaky test');
    expect(first.state).toBe('completed');
    const session = /\[default (\S+) turn 1 source=tool\] find the flaky test/.exec(first.text)?.[1];
    expect(session).toBeDefined();
    const second = await say('ctx-kit-1', 'now fix it');
    expect(second.text).toContain(`[default ${session} turn 2 source=tool] now fix it (earlier: find the flaky test)`);

    await app.stop();
    await app.restart();
    const third = await say('ctx-kit-1', 'and commit');
    expect(third.text).toContain(`[default ${session} turn 3 source=tool] and commit`);
  });

  it('a run cut short at --max-turns is FAILED with Hermes\'s reason, and no result file is left', async () => {
    const cut = await say('ctx-kit-2', 'migrate the schema, steps 80');
    expect(cut.state).toBe('failed');
    expect(cut.text).toContain('run did not complete: max_iterations_reached (60)');
    expect(fs.readdirSync(path.join(dir, 'tmp')).filter((name) => name.startsWith('switchboard-turn-'))).toEqual([]);
  });
});
