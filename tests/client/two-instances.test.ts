/**
 * Instance A dispatches to instance B's agents over real HTTP. B's response window is
 * 1 s and A's client timeout 1.5 s, so every 4 s task outlives both clocks: it must end
 * COMPLETED with the whole result in A's and B's records, in every mode, over v0.3 and v1.0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { artifactText, dispatch, postJson, readTask, waitForTask, type TaskView } from '../support/dispatch-api';
import { waitFor } from '../support/a2a-clients';

let a: AppServer;
let b: AppServer;
/** An A whose follow limit (2 s) is shorter than the task. */
let limited: AppServer;

beforeAll(async () => {
  [a, b, limited] = await Promise.all([
    startApp({ SWITCHBOARD_CLIENT_TIMEOUT: '1.5' }),
    startApp({ SWITCHBOARD_RESPONSE_WINDOW: '1', SWITCHBOARD_LATE_RESULT_GRACE: '60' }),
    startApp({ SWITCHBOARD_CLIENT_TIMEOUT: '1.5', SWITCHBOARD_FOLLOW_LIMIT: '2' }),
  ]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop(), limited?.stop()]);
});

const MODES = ['blocking', 'streaming', 'background'] as const;
const VERSIONS = ['0.3', '1.0'] as const;

function resultLines(view: Pick<TaskView, 'snapshot'>): string[] {
  return artifactText(view, 'result').split('\n').filter(Boolean);
}

// Concurrent: each case is its own task on the same two apps, and its time is the peer's clock
// (4 s, 2 s), not work; one after another they took 29 s.
describe.concurrent('A → B slow agent (4 s task, B window 1 s, A timeout 1.5 s)', () => {
  const cases = MODES.flatMap((mode) => VERSIONS.map((version) => ({ mode, version })));

  it.each(cases)('$mode over v$version ends COMPLETED with the whole result on both sides', async ({ mode, version }) => {
    const taskId = await dispatch(a.url, { url: `${b.url}/a2a/slow`, text: 'work 4s chunks 8', mode, protocolVersion: version });
    const mine = await waitForTask(a.url, taskId);
    expect(mine.task.state).toBe('completed');
    expect(mine.task.endReason).toBeNull();
    expect(mine.task.remoteTaskId).toBeTruthy();
    expect(resultLines(mine)).toHaveLength(8);

    const theirs = await readTask(b.url, mine.task.remoteTaskId!);
    expect(theirs.task.state).toBe('completed');
    expect(artifactText(mine, 'result')).toBe(artifactText(theirs, 'result'));
    // Outlived both clocks without a single failure on the way.
    expect(mine.events.some((e) => e.type === 'status' && e.state === 'failed')).toBe(false);
    expect(mine.events.find((e) => e.type === 'status' && e.state === 'working')).toBeTruthy();
    // B's 1 s window ended (or A's 1.5 s timeout did): A's record shows the detach too.
    expect(mine.events.filter((e) => e.type === 'detached')).toHaveLength(1);
  });

  it.each(VERSIONS)('over v%s our own timeout ending first is not a failure: the task is followed and completed', async (version) => {
    // Silent for 2 s after its first status: our 0.5 s timeout cuts the (streamed) blocking call.
    const taskId = await dispatch(a.url, { url: `${b.url}/a2a/slow`, text: 'work 2s chunks 1', mode: 'blocking', timeoutSeconds: 0.5, protocolVersion: version });
    const mine = await waitForTask(a.url, taskId);
    expect(mine.task.state).toBe('completed');
    expect(resultLines(mine)).toHaveLength(1);
    const payloads = mine.events.filter((e) => e.type === 'remote').map((e) => e.payload as { event?: string });
    expect(payloads.map((p) => p.event)).toEqual(expect.arrayContaining(['client-timeout', 'timing-warning', 'task']));
    const detached = mine.events.filter((e) => e.type === 'detached');
    expect(detached).toHaveLength(1);
    expect((detached[0].payload as { reason: string }).reason).toBe('client timeout after 0.5 s');
  });
});

describe('the follow limit', () => {
  it('ends the task FAILED "follow limit exceeded" on our side; the peer keeps its own task', async () => {
    const taskId = await dispatch(limited.url, { url: `${b.url}/a2a/slow`, text: 'work 6s chunks 6', mode: 'streaming' });
    const mine = await waitForTask(limited.url, taskId);
    expect(mine.task.state).toBe('failed');
    expect(mine.task.endReason).toBe('follow limit exceeded');
    const theirs = await waitForTask(b.url, mine.task.remoteTaskId!);
    expect(theirs.task.state).toBe('completed');
  });
});

describe('multi-turn and cancel through A', () => {
  it("a peer's input-required is recorded, and a follow-up dispatch with taskId completes the same task", async () => {
    const taskId = await dispatch(a.url, { url: `${b.url}/a2a/ask`, text: 'greet me', mode: 'streaming' });
    const asking = await waitForTask(a.url, taskId, ['input-required']);
    expect(asking.task.endReason).toBeNull();

    const again = await dispatch(a.url, { taskId, text: 'Ada', mode: 'blocking' });
    expect(again).toBe(taskId);
    const done = await waitForTask(a.url, taskId);
    expect(done.task.state).toBe('completed');
    expect(artifactText(done, 'answer')).toBe('Hello, Ada!');
    const theirs = await readTask(b.url, done.task.remoteTaskId!);
    expect(theirs.task.state).toBe('completed');
  });

  it('a follow-up to a task that is not waiting for input is refused, naming taskId', async () => {
    const taskId = await dispatch(a.url, { url: `${b.url}/a2a/echo`, text: 'hi' });
    await waitForTask(a.url, taskId);
    const res = await postJson(`${a.url}/api/dispatch`, { taskId, text: 'more' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ field: 'taskId' });
  });

  it('cancel from A reaches B; both end CANCELED', async () => {
    const taskId = await dispatch(a.url, { url: `${b.url}/a2a/slow`, text: 'work 30s chunks 30', mode: 'background' });
    const running = await waitFor(async () => {
      const view = await readTask(a.url, taskId);
      return view.task.remoteTaskId && view.task.state === 'working' ? view : null;
    }, 30_000);
    const res = await postJson(`${a.url}/api/tasks/${taskId}/cancel`, {});
    expect(res.status).toBe(200);
    const mine = await waitForTask(a.url, taskId);
    expect(mine.task.state).toBe('canceled');
    const theirs = await waitForTask(b.url, running.task.remoteTaskId!);
    expect(theirs.task.state).toBe('canceled');
  });
});
