/**
 * The server-wide output limit holds for any producer, here an outbound task as the
 * follower records a peer's chunks: the chunk over the limit is not stored, the task ends FAILED
 * `output limit exceeded` through the terminal claim, and the count survives a process that has
 * not seen the task before (it is read back from the event log).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from '../support/in-process';
import type { FollowState } from '../../lib/engine/outbound/follow-state';
import type { PeerConnection } from '../../lib/peers/connect';

type Writer = typeof import('../../lib/engine/core/task-writer');
let writer: Writer;
let repo: typeof import('../../lib/db/task-repo');
let meter: typeof import('../../lib/engine/core/output-limit');
let recorders: typeof import('../../lib/engine/outbound/remote-recorder');
let followJob: typeof import('../../lib/engine/outbound/follow-job');

beforeAll(async () => {
  await freshStore({ SWITCHBOARD_MAX_TASK_OUTPUT_BYTES: '2000' });
  writer = await import('../../lib/engine/core/task-writer');
  repo = await import('../../lib/db/task-repo');
  meter = await import('../../lib/engine/core/output-limit');
  recorders = await import('../../lib/engine/outbound/remote-recorder');
  followJob = await import('../../lib/engine/outbound/follow-job');
});

const follow = { mode: 'streaming', phase: 'follow', target: { peer: 'p' }, timeoutMs: 60_000, timeoutSource: 'default', message: { kind: 'message', messageId: 'm', role: 'user', parts: [] }, startedAt: new Date().toISOString() } as unknown as FollowState;

const chunk = (i: number) => ({ type: 'artifact' as const, payload: { artifact: { artifactId: 'r', parts: [{ kind: 'text' as const, text: 'x'.repeat(400) }] }, append: i > 0 } });

describe('the output limit', () => {
  it('ends an outbound task FAILED when a peer sends more than the limit', async () => {
    const id = crypto.randomUUID();
    await writer.createTaskRecord({ id, contextId: 'c', direction: 'outbound', peerName: 'p', state: 'working', requestText: 'x' }, []);
    for (let i = 0; i < 3; i++) expect(await writer.recordEvents(id, [chunk(i)], { onlyIfNotTerminal: true })).not.toBeNull();
    meter.outputMeter().forget(id); // as in a process that never saw this task: counted from the log
    expect(await writer.recordEvents(id, [chunk(3)], { onlyIfNotTerminal: true })).not.toBeNull();
    expect(await writer.recordEvents(id, [chunk(4)], { onlyIfNotTerminal: true })).toBeNull();
    const task = await repo.findTask(id);
    expect(task).toMatchObject({ state: 'failed', endReason: 'output limit exceeded' });
    const artifactEvents = (await repo.listEvents(id)).filter((e) => e.type === 'artifact');
    expect(artifactEvents).toHaveLength(4);
  });

  it("a peer's chunks written as one run keep, over the limit, the chunks before the one that goes over", async () => {
    const id = crypto.randomUUID();
    await writer.createTaskRecord({ id, contextId: 'c', direction: 'outbound', peerName: 'p', state: 'working', requestText: 'x' }, []);
    expect(await writer.recordChunkRun(id, [0, 1].map(chunk), { onlyIfNotTerminal: true })).not.toBeNull();
    expect(await writer.recordChunkRun(id, [2, 3, 4, 5].map(chunk), { onlyIfNotTerminal: true })).toBeNull();
    expect(await repo.findTask(id)).toMatchObject({ state: 'failed', endReason: 'output limit exceeded' });
    // Four chunks of ~450 bytes fit under 2,000: the run is written one by one once it does not fit whole.
    expect((await repo.listEvents(id)).filter((e) => e.type === 'artifact')).toHaveLength(4);
  });

  it("keeps, over the limit, the chunks before the one that goes over when they came with the peer's end", async () => {
    const id = crypto.randomUUID();
    await writer.createTaskRecord({ id, contextId: 'c', direction: 'outbound', peerName: 'p', state: 'working', requestText: 'x' }, []);
    const recorder = new recorders.RemoteRecorder(id, 'c', 'remote-1', follow, []);
    const job = { recorder, conn: {} as PeerConnection, signal: new AbortController().signal, followLimitMs: 60_000 };
    for (let i = 0; i < 6; i++) expect(await recorder.recordChunk(chunk(i).payload)).toBe(true);
    expect(await followJob.settle(job, { kind: 'terminal', status: { state: 'completed' }, fromSnapshot: true })).toBe(true);
    expect(await repo.findTask(id)).toMatchObject({ state: 'failed', endReason: 'output limit exceeded' });
    expect((await repo.listEvents(id)).filter((e) => e.type === 'artifact')).toHaveLength(4);
  });

  it('turns a completion whose own artifacts pass the limit into the failure', async () => {
    const id = crypto.randomUUID();
    await writer.createTaskRecord({ id, contextId: 'c', direction: 'inbound', agentSlug: 'echo', state: 'working', requestText: 'x' }, []);
    const won = await writer.claimTerminal(id, { state: 'completed', events: [0, 1, 2, 3, 4, 5].map(chunk) });
    expect(won?.task).toMatchObject({ state: 'failed', endReason: 'output limit exceeded' });
    expect((await repo.listEvents(id)).filter((e) => e.type === 'artifact')).toHaveLength(0);
  });
});
