/**
 * The real `switchboard` binary against a real Switchboard (tokens configured,
 * response window W = 2 s). A 5 s streamed task detaches at W; `dispatch --follow` must still
 * print the whole result and exit 0, and each other ending must give its documented code.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startApp, type AppServer } from '../support/app-server';
import { waitFor } from '../support/a2a-clients';
import { followedTaskId, runCli, startCli } from '../support/cli';
import type { TaskView } from '../support/dispatch-api';

const OPERATOR = 'cli-operator-token-0123456789';
const VIEWER = 'cli-viewer-token-0123456789ab';

let app: AppServer;
let env: Record<string, string>;

beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_RESPONSE_WINDOW: '2', SWITCHBOARD_OPERATOR_TOKEN: OPERATOR, SWITCHBOARD_VIEWER_TOKEN: VIEWER });
  env = { SWITCHBOARD_URL: app.url, SWITCHBOARD_TOKEN: OPERATOR };
});
afterAll(async () => {
  await app?.stop();
});

async function readTask(taskId: string): Promise<TaskView> {
  const res = await fetch(`${app.url}/api/tasks/${taskId}`, { headers: { Authorization: `Bearer ${OPERATOR}` } });
  return (await res.json()) as TaskView;
}

const resultOf = (view: TaskView) => (view.snapshot.artifacts ?? []).flatMap((a) => a.parts.map((p) => p.text ?? '')).join('');

describe('switchboard dispatch --follow', () => {
  it('adds a peer, then follows a 5 s task through the 2 s window to its full streamed result, exit 0', async () => {
    const added = await runCli(['peers', 'add', 'slow', `${app.url}/a2a/slow`, '--json'], env);
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout).peer.name).toBe('slow');

    const run = startCli(['dispatch', 'slow', 'work 5s chunks 5', '--follow'], env);
    // The first text reaches stdout while the task is still running: it is streamed, not dumped at the end.
    const stateAtFirstText = await waitFor(async () => {
      const id = followedTaskId(run.stderr());
      return id && run.stdout() ? (await readTask(id)).task.state : null;
    }, 30_000, 50);
    expect(stateAtFirstText).not.toBe('completed');

    const code = await run.exited;
    const taskId = followedTaskId(run.stderr())!;
    const final = await readTask(taskId);
    expect(code).toBe(0);
    expect(final.task.state).toBe('completed');
    expect(final.events.some((e) => e.type === 'detached')).toBe(true);
    expect(run.stdout()).toBe(resultOf(final).endsWith('\n') ? resultOf(final) : `${resultOf(final)}\n`);
    expect(run.stdout().split('\n').filter((l) => l.startsWith('chunk '))).toHaveLength(5);
    // Progress as plain lines (stderr is not a terminal here): the agent's own reports and the detach.
    expect(run.stderr()).toMatch(/Working: working for 5 s in 5 chunks/);
    expect(run.stderr()).toMatch(/Detached/);
    expect(run.stderr()).toMatch(new RegExp(`task ${taskId} completed \\(exit 0\\)`));
  });

  it('a failing task exits 10 with its reason', async () => {
    const run = await runCli(['dispatch', `${app.url}/a2a/budget`, 'steps 5 budget 3', '--follow'], env);
    expect(run.code).toBe(10);
    expect(run.stderr).toMatch(/failed: .*iteration budget exhausted/);
  });

  it('--json prints one document with the task, the whole result and the exit code', async () => {
    const run = await runCli(['dispatch', 'slow', 'work 1s chunks 3', '--mode', 'background', '--follow', '--json'], env);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.exitCode).toBe(0);
    expect(doc.task.state).toBe('completed');
    expect(doc.result.split('\n').filter((l: string) => l.startsWith('chunk '))).toHaveLength(3);
  });

  it('a task that asks for input exits 12; tasks reply answers it and follows it to 0', async () => {
    const asked = await runCli(['dispatch', `${app.url}/a2a/ask`, 'hello', '--follow'], env);
    expect(asked.code).toBe(12);
    const taskId = followedTaskId(asked.stderr)!;
    expect(asked.stderr).toMatch(`switchboard tasks reply ${taskId}`);
    const answered = await runCli(['tasks', 'reply', taskId, 'Ada', '--follow'], env);
    expect(answered.code).toBe(0);
    expect((await readTask(taskId)).task.state).toBe('completed');
  });

  it('tasks reply --data answers with a data part; a task without artifacts has the final message as its result', async () => {
    const asked = await runCli(['dispatch', `${app.url}/a2a/ask`, 'may I run ls?', '--follow', '--json'], env);
    expect(asked.code).toBe(12);
    const doc = JSON.parse(asked.stdout);
    // No artifacts yet: the result is the agent's question, not "".
    expect(doc.result).toBe('You asked: "may I run ls?". What is your name?');
    const taskId = doc.task.id as string;
    const notObject = await runCli(['tasks', 'reply', taskId, '--data', '[1]'], env);
    expect(notObject.code).toBe(2);
    expect(notObject.stderr).toMatch(/--data must be a JSON object/);
    const nothing = await runCli(['tasks', 'reply', taskId], env);
    expect(nothing.code).toBe(2);

    const answered = await runCli(['tasks', 'reply', taskId, '--data', '{"callId":"c1","outcome":"proceed_once"}', '--follow', '--json'], env);
    expect(answered.code).toBe(0);
    expect(JSON.parse(answered.stdout).result).toBe('Hello, {"callId":"c1","outcome":"proceed_once"}!');
    const sent = (await readTask(taskId)).events.filter((e) => e.type === 'message').map((e) => (e.payload as { message: { parts: unknown[] } }).message.parts);
    expect(sent.at(-1)).toEqual([{ kind: 'data', data: { callId: 'c1', outcome: 'proceed_once' } }]);
  });

  it('POST /api/dispatch takes data (a JSON object, bounded) beside or instead of text, naming the field when wrong', async () => {
    const post = (body: unknown) => fetch(`${app.url}/api/dispatch`, { method: 'POST', headers: { Authorization: `Bearer ${OPERATOR}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const both = await post({ url: `${app.url}/a2a/echo`, text: 'see', data: { a: 1 } });
    expect(both.status).toBe(202);
    const array = await post({ url: `${app.url}/a2a/echo`, data: [1] });
    expect(array.status).toBe(400);
    expect((await array.json()).error).toMatchObject({ field: 'data' });
    const big = await post({ url: `${app.url}/a2a/echo`, data: { blob: 'x'.repeat(70_000) } });
    expect(big.status).toBe(400);
    expect((await big.json()).error.message).toMatch(/data: at most 65536 bytes/);
    const none = await post({ url: `${app.url}/a2a/echo` });
    expect((await none.json()).error).toMatchObject({ field: 'text' });
  });

  it('without --follow prints the task id at once', async () => {
    const run = await runCli(['dispatch', 'self', 'hi'], env);
    expect(run.code).toBe(0);
    const taskId = run.stdout.trim();
    expect((await waitFor(async () => ((await readTask(taskId)).task.state === 'completed' ? 'yes' : null)))).toBe('yes');
  });
});

describe('Ctrl-C, watch and cancel', () => {
  it('Ctrl-C stops following, says how to resume, and leaves the task running; cancel ends it; watch then exits 11', async () => {
    const run = startCli(['dispatch', 'slow', 'work 60s chunks 60', '--follow'], env);
    const taskId = await waitFor(async () => (run.stderr().includes('Working') ? followedTaskId(run.stderr()) : null), 30_000);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(run.stderr()).toMatch(`resume with: switchboard tasks watch ${taskId}`);
    expect((await readTask(taskId)).task.state).toBe('working');

    const listed = await runCli(['tasks', 'ls', '--peer', 'slow', '--json'], env);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).tasks.map((t: { id: string }) => t.id)).toContain(taskId);

    const canceled = await runCli(['tasks', 'cancel', taskId, '--json'], env);
    expect(canceled.code).toBe(0);
    expect(JSON.parse(canceled.stdout).task.state).toBe('canceled');
    const watched = await runCli(['tasks', 'watch', taskId], env);
    expect(watched.code).toBe(11);

    const shown = await runCli(['tasks', 'show', taskId, '--json'], env);
    expect(JSON.parse(shown.stdout).task.state).toBe('canceled');
    const inState = await runCli(['tasks', 'ls', '--state', 'canceled', '--json'], env);
    expect(JSON.parse(inState.stdout).tasks.map((t: { id: string }) => t.id)).toContain(taskId);
  });
});

describe('precise errors', () => {
  it('an unreachable server exits 3 and says where it looked', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const run = await runCli(['tasks', 'ls'], { SWITCHBOARD_URL: url });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(`cannot reach Switchboard at ${url}`);
  });

  it('a missing or wrong token exits 4; a viewer token may read but not dispatch', async () => {
    const missing = await runCli(['tasks', 'ls'], { SWITCHBOARD_URL: app.url });
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch('set SWITCHBOARD_TOKEN');
    const wrong = await runCli(['tasks', 'ls', '--json'], { SWITCHBOARD_URL: app.url, SWITCHBOARD_TOKEN: 'not-the-token-at-all' });
    expect(wrong.code).toBe(4);
    expect(JSON.parse(wrong.stdout).error.message).toMatch('SWITCHBOARD_TOKEN was refused');
    const viewer = { SWITCHBOARD_URL: app.url, SWITCHBOARD_TOKEN: VIEWER };
    expect((await runCli(['tasks', 'ls'], viewer)).code).toBe(0);
    const refused = await runCli(['dispatch', 'self', 'hi'], viewer);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch('operator');
  });

  it('an unknown peer exits 5 and names it; bad usage exits 2', async () => {
    const run = await runCli(['dispatch', 'nobody', 'hi', '--follow'], env);
    expect(run.code).toBe(5);
    expect(run.stderr).toMatch(/unknown peer nobody: .*no peer named "nobody"/);
    expect((await runCli(['peers', 'test', 'nobody'], env)).code).toBe(5);
    const usage = await runCli(['dispatch', 'self', 'hi', '--mode', 'sideways'], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch('--mode');
  });
});

describe('peers and keys', () => {
  it('peers ls, test and rm', async () => {
    await runCli(['peers', 'add', 'gone', `${app.url}/a2a/echo`], env);
    const listed = JSON.parse((await runCli(['peers', 'ls', '--json'], env)).stdout);
    expect(listed.peers.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['self', 'gone']));
    const tested = await runCli(['peers', 'test', 'gone', '--json'], env);
    expect(tested.code).toBe(0);
    expect(JSON.parse(tested.stdout).reachable).toBe(true);
    expect((await runCli(['peers', 'rm', 'gone'], env)).code).toBe(0);
    expect((await runCli(['peers', 'rm', 'gone'], env)).code).toBe(5);
  });

  it('keys create and list work on the local database, as npm run keys', async () => {
    // Its own database: a key on the server's would close its A2A endpoints to the other tests.
    const local = { DATABASE_URL: `file:${path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-keys-')), 'keys.db')}` };
    const created = await runCli(['keys', 'create', 'cli-peer', '--json'], local);
    expect(created.code).toBe(0);
    const { key, id } = JSON.parse(created.stdout);
    expect(key).toMatch(/\S{20,}/);
    // The runs that do not depend on each other go at once: each is a process start (~0.7 s idle,
    // many seconds on a loaded machine), and eight in a row outlasted the test's minute there.
    // A key's own quotas: set, shown, returned to the default; a bad word is named.
    const setThenBack = async () => {
      const set = await runCli(['keys', 'quota', id, 'requestsPerSecond=7', 'storedBytes=0', '--json'], local);
      expect(JSON.parse(set.stdout)).toEqual({ id, quotas: { requestsPerSecond: 7, storedBytes: 0 } });
      const back = await runCli(['keys', 'quota', id, 'requestsPerSecond=default', '--json'], local);
      expect(JSON.parse(back.stdout).quotas).toEqual({ storedBytes: 0 });
    };
    const [listed, , bad, burst, unknown] = await Promise.all([
      runCli(['keys', 'list', '--json'], local),
      setThenBack(),
      runCli(['keys', 'quota', id, 'openTasks=many'], local),
      runCli(['keys', 'quota', id, 'burst=1'], local),
      runCli(['keys', 'quota', 'no-such-key', 'openTasks=1'], local),
    ]);
    expect(JSON.parse(listed.stdout).keys.map((k: { id: string }) => k.id)).toContain(id);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/openTasks=many: expected a whole number from 0 \(no limit\) to 1073741824, or "default"/);
    expect(burst.stderr).toMatch(/burst=1: expected one of requestsPerSecond, openTasks, storedBytes/);
    expect(unknown.code).toBe(5);
    expect((await runCli(['keys', 'revoke', id], local)).code).toBe(0);
  });
});

describe('across a restart of the Switchboard', () => {
  it('--follow reconnects after the last event it saw and still ends with the whole result, exit 0', async () => {
    const peer = await startApp({ SWITCHBOARD_RESPONSE_WINDOW: '1' });
    try {
      const run = startCli(['dispatch', `${peer.url}/a2a/slow`, 'work 6s chunks 6', '--follow'], env);
      await waitFor(async () => run.stdout().includes('chunk 00001'), 30_000);
      await app.stop();
      await app.restart();
      expect(await run.exited).toBe(0);
      expect(run.stderr()).toMatch(/connection lost .*reconnecting/);
      const lines = run.stdout().split('\n').filter(Boolean);
      expect(lines).toHaveLength(6);
      expect(new Set(lines).size).toBe(6);
    } finally {
      await peer.stop();
    }
  });
});

describe('lost contact', () => {
  it('a server that stays away past --reconnect-limit gives exit 14 and how to resume', async () => {
    const run = startCli(['tasks', 'watch', JSON.parse((await runCli(['dispatch', `${app.url}/a2a/slow`, 'work 60s', '--json'], env)).stdout).taskId, '--reconnect-limit', '1'], env);
    await waitFor(async () => run.stderr().includes('following task'), 30_000);
    await app.kill();
    expect(await run.exited).toBe(14);
    expect(run.stderr()).toMatch(/lost contact with .*resume with: switchboard tasks watch/);
  });
});
