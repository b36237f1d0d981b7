/**
 * A result "stored twice" and "many parts", against real HTTP peers: after an outbound task
 * ends, what Switchboard stores and serves as its result equals the peer's final task (artifacts
 * by content and id as the peer reports them), the streamed text is never held twice, appended
 * text is one part, and a final task that differs from its stream leaves a visible note.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppServer } from '../support/app-server';
import { startRenderingPeer, STREAMED_ID, renderedChunk, type RenderingPeer } from '../support/rendering-peer';
import { artifactText, dispatch, waitForTask, type TaskView } from '../support/dispatch-api';
import { followedTaskId, runCli } from '../support/cli';

let app: AppServer;
let peer: RenderingPeer;

beforeAll(async () => {
  [app, peer] = await Promise.all([startApp(), startRenderingPeer()]);
});
afterAll(async () => {
  await Promise.all([app?.stop(), peer?.close()]);
});

const whole = (n: number) => Array.from({ length: n }, (_, i) => renderedChunk(i)).join('');
const notes = (view: TaskView) => view.events.filter((e) => e.type === 'remote' && (e.payload as { event?: string }).event === 'final-differs');

async function streamed(render: string, chunks = 4): Promise<TaskView> {
  const taskId = await dispatch(app.url, { url: peer.url, text: `render ${render} chunks ${chunks}`, mode: 'streaming' });
  const view = await waitForTask(app.url, taskId);
  expect(view.task.state).toBe('completed');
  return view;
}

describe("the peer's final task is the stored result", () => {
  it('a peer that re-renders its reply under a new artifactId: only the final artifact is kept, the text once', async () => {
    const view = await streamed('new-ids');
    expect(view.snapshot.artifacts).toHaveLength(1);
    expect(view.snapshot.artifacts![0].artifactId).toMatch(/^rendered-/);
    expect(artifactText(view)).toBe(whole(4));
    // Same content under another id: not a different result.
    expect(notes(view)).toEqual([]);
  });

  it('a peer that keeps its ids: the streamed artifact, its appended text one part', async () => {
    const view = await streamed('keep-ids', 40);
    expect(view.snapshot.artifacts).toEqual([{ artifactId: STREAMED_ID, parts: [{ kind: 'text', text: whole(40) }] }]);
    expect(notes(view)).toEqual([]);
  });

  it('a stream longer than the follower folds at once (1,500 chunks; decision 413): the same result, no note', async () => {
    const view = await streamed('keep-ids', 1_500);
    expect(view.snapshot.artifacts).toEqual([{ artifactId: STREAMED_ID, parts: [{ kind: 'text', text: whole(1_500) }] }]);
    expect(notes(view)).toEqual([]);
  });

  it('a final task without artifacts keeps what was streamed (one text part)', async () => {
    const view = await streamed('no-artifacts');
    expect(view.snapshot.artifacts).toEqual([{ artifactId: STREAMED_ID, parts: [{ kind: 'text', text: whole(4) }] }]);
    expect(notes(view)).toEqual([]);
  });

  it('a final task that differs from its stream wins, and the task notes the difference', async () => {
    const view = await streamed('doubled', 3);
    const doubled = [0, 1, 2].flatMap((i) => [renderedChunk(i), renderedChunk(i)]);
    expect(view.snapshot.artifacts).toEqual([{ artifactId: STREAMED_ID, parts: doubled.map((text) => ({ kind: 'text', text })) }]);
    expect(notes(view)).toHaveLength(1);
  });

  it('switchboard dispatch --follow prints a re-rendered result once', async () => {
    const run = await runCli(['dispatch', peer.url, 'render new-ids chunks 5', '--mode', 'stream', '--follow'], { SWITCHBOARD_URL: app.url });
    expect(run.code, run.stderr).toBe(0);
    expect(followedTaskId(run.stderr)).toBeTruthy();
    expect(run.stdout).toBe(`${whole(5)}\n`);
  });
});
