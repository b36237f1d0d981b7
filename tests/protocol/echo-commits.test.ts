/**
 * A task whose agent touches nothing but the task and answers in the same event-loop turn (echo,
 * and ask's first turn) is created and ended in ONE commit (decision 425): its turn starts with
 * the task's write, so its end is queued in the same group commit. Counted from outside with
 * SWITCHBOARD_QUERY_LOG=1 (GET /api/debug/queries, lib/db/query-counter.ts) on the built app,
 * sends one at a time (no other send to share a commit with). What the caller sees is
 * unchanged: the completed task, its stream in order, the stored task afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactText, asTask, collect, lastState, sdkClient, sendParams, streamedArtifactText, TaskState } from '../support/a2a-clients';
import { startApp, type AppServer } from '../support/app-server';

let app: AppServer;

beforeAll(async () => {
  app = await startApp({ SWITCHBOARD_QUERY_LOG: '1' });
});
afterAll(async () => {
  await app?.stop();
});

const counts = async () => (await (await fetch(`${app.url}/api/debug/queries`)).json()) as Record<string, number>;

/** Task writes and the commits that held them over `run`. */
async function writesAndCommits(run: () => Promise<void>): Promise<{ writes: number; commits: number }> {
  const before = await counts();
  await run();
  const after = await counts();
  return { writes: after.writes - before.writes, commits: after.commits - before.commits };
}

describe('a lone echo', () => {
  it('is created and ended in one commit', async () => {
    const client = await sdkClient(app.url, 'echo', '1.0');
    await client.sendMessage(sendParams('warm-up'));
    const sends = 5;
    const counted = await writesAndCommits(async () => {
      for (let i = 0; i < sends; i++) {
        const task = asTask(await client.sendMessage(sendParams(`hello ${i}`)));
        expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
        expect(artifactText(task)).toBe(`hello ${i}`);
        const stored = asTask(await client.getTask({ tenant: '', id: task.id, historyLength: 10 }));
        expect(stored.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
        expect(artifactText(stored)).toBe(`hello ${i}`);
      }
    });
    // Two writes a send (created; ended), one commit for both. On main: a commit each.
    expect(counted.writes).toBe(2 * sends);
    expect(counted.commits, `${counted.writes} writes in ${counted.commits} commits`).toBe(sends);
  });

  it('streams its events in commit order', async () => {
    const client = await sdkClient(app.url, 'echo', '1.0');
    const events = await collect(client.sendMessageStream(sendParams('streamed')));
    expect(events[0].payload?.$case).toBe('task');
    expect(streamedArtifactText(events)).toBe('streamed');
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("and ask's first turn (input-required) commit once; its answer as before", async () => {
    const client = await sdkClient(app.url, 'ask', '1.0');
    let taskId = '';
    const counted = await writesAndCommits(async () => {
      const task = asTask(await client.sendMessage(sendParams('who?')));
      expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      taskId = task.id;
    });
    expect(counted).toEqual({ writes: 2, commits: 1 });
    const answered = asTask(await client.sendMessage(sendParams('Ada', { taskId })));
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(answered)).toBe('Hello, Ada!');
  });
});
