/**
 * A peer's chunks read in one go are written as one run (decision 297): the outbound follower's
 * recorder gathers the chunks read before the next turn of the event loop into one append, so a
 * relay's stream costs one write, one publish and one mirror step per run instead of per chunk.
 * The log still holds every chunk once, in the peer's order, and a status after the chunks
 * comes after them. A served turn's chunks emitted in one loop turn are one change too (decision 335).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from '../support/in-process';
import type { FollowState } from '../../lib/engine/outbound/follow-state';
import type { PeerConnection } from '../../lib/peers/connect';
import type { ServedAgent } from '../../lib/agent-runner';

let writer: typeof import('../../lib/engine/core/task-writer');
let repo: typeof import('../../lib/db/task-repo');
let recorders: typeof import('../../lib/engine/outbound/remote-recorder');
let hub: typeof import('../../lib/events/hub');
let store: typeof import('../../lib/db/task-store');
let followJob: typeof import('../../lib/engine/outbound/follow-job');
let engine: typeof import('../../lib/engine/inbound/operations');
let scopes: typeof import('../../lib/db/task-scope');

beforeAll(async () => {
  await freshStore();
  writer = await import('../../lib/engine/core/task-writer');
  repo = await import('../../lib/db/task-repo');
  recorders = await import('../../lib/engine/outbound/remote-recorder');
  hub = await import('../../lib/events/hub');
  store = await import('../../lib/db/task-store');
  followJob = await import('../../lib/engine/outbound/follow-job');
  engine = await import('../../lib/engine/inbound/operations');
  scopes = await import('../../lib/db/task-scope');
});

const follow = { mode: 'streaming', phase: 'follow', target: { peer: 'p' }, timeoutMs: 60_000, timeoutSource: 'default', message: { kind: 'message', messageId: 'm', role: 'user', parts: [] }, startedAt: new Date().toISOString() } as unknown as FollowState;
const chunk = (i: number) => ({ artifact: { artifactId: 'r', parts: [{ kind: 'text' as const, text: `chunk ${i}\n` }] }, append: i > 0 });

describe("the follower's chunk runs", () => {
  it('writes the chunks read together as one change, every chunk once and in order, before the status that follows them', async () => {
    const id = crypto.randomUUID();
    await writer.createTaskRecord({ id, contextId: 'c', direction: 'outbound', peerName: 'p', state: 'working', requestText: 'x' }, []);
    const changes: number[] = [];
    const unsubscribe = hub.eventHub().subscribeFeed((change) => void (change.task.id === id && changes.push(change.events.length)));
    const recorder = new recorders.RemoteRecorder(id, 'c', 'remote-1', follow, []);
    // As the follower applies a network read's events: each awaited in turn, no macrotask between.
    for (let i = 0; i < 50; i++) expect(await recorder.recordChunk(chunk(i))).toBe(true);
    expect(await recorder.recordStatus({ state: 'working', message: { kind: 'message', messageId: 's', role: 'agent', parts: [{ kind: 'text', text: 'half way' }] } })).toBe(true);
    for (let i = 50; i < 60; i++) expect(await recorder.recordChunk(chunk(i))).toBe(true);
    await recorder.flush();
    unsubscribe();
    const events = await repo.listEvents(id);
    const texts = events.filter((e) => e.type === 'artifact').map((e) => (e.payload as ReturnType<typeof chunk>).artifact.parts[0].text);
    expect(texts).toEqual(Array.from({ length: 60 }, (_, i) => `chunk ${i}\n`));
    expect(events.map((e) => e.type)).toEqual([...Array(50).fill('artifact'), 'status', ...Array(10).fill('artifact')]);
    // Three changes (50 chunks, the status, 10 chunks), not 61.
    expect(changes).toEqual([50, 1, 10]);
  });

  it("writes the chunks read together with the peer's end in the end's commit, in order (decision 351)", async () => {
    const id = crypto.randomUUID();
    await writer.createTaskRecord({ id, contextId: 'c', direction: 'outbound', peerName: 'p', state: 'working', requestText: 'x' }, []);
    const changes: string[][] = [];
    const unsubscribe = hub.eventHub().subscribeFeed((change) => void (change.task.id === id && changes.push(change.events.map((e) => e.state ?? e.type))));
    const recorder = new recorders.RemoteRecorder(id, 'c', 'remote-1', follow, []);
    const job = { recorder, conn: {} as PeerConnection, signal: new AbortController().signal, followLimitMs: 60_000 };
    for (let i = 0; i < 3; i++) expect(await recorder.recordChunk(chunk(i))).toBe(true);
    // The end read in the same network read as the chunks (a snapshot's end: no confirming read).
    expect(await followJob.settle(job, { kind: 'terminal', status: { state: 'completed' }, fromSnapshot: true })).toBe(true);
    await recorder.flush();
    unsubscribe();
    expect(changes).toEqual([['artifact', 'artifact', 'artifact', 'completed']]);
    const task = await repo.findTask(id);
    expect(task?.state).toBe('completed');
    expect(task?.resultText).toBe('chunk 0\nchunk 1\nchunk 2\n');
  });

  it("makes an artifact chunk's JSON once, whoever asks (the meter, the charge, the writer)", () => {
    const event = { type: 'artifact' as const, payload: chunk(1) };
    const first = store.eventJson(event);
    expect(first).toBe(JSON.stringify(event.payload));
    expect(store.eventJson({ type: 'artifact', payload: event.payload })).toBe(first); // the same string, not made again
    expect(store.eventJson({ type: 'status', payload: { a: 1 } })).toBe('{"a":1}');
  });

  it("writes a served turn's chunks emitted in one loop turn as one change, in order around its progress and its failure (decision 335)", async () => {
    const runner: ServedAgent = {
      slug: 'chunky',
      name: 'chunky',
      description: '',
      skills: [],
      runner: {
        async runTurn(turn) {
          for (let i = 0; i < 40; i++) await turn.emit.artifact(chunk(i));
          await turn.emit.progress('half way');
          for (let i = 40; i < 50; i++) await turn.emit.artifact(chunk(i));
          throw new Error('agent broke after its chunks');
        },
      },
    };
    const changes: { id: string; types: string[] }[] = [];
    const unsubscribe = hub.eventHub().subscribeFeed((change) => void changes.push({ id: change.task.id, types: change.events.map((e) => e.type) }));
    const message = { kind: 'message' as const, messageId: crypto.randomUUID(), role: 'user' as const, parts: [{ kind: 'text' as const, text: 'go' }] };
    const answer = await engine.sendMessage({ agent: runner, scope: scopes.callerScope(runner.slug, 'anonymous'), message, peer: 'test' }, 'blocking');
    unsubscribe();
    const id = 'id' in answer ? answer.id : '';
    const events = await repo.listEvents(id);
    const after = events.slice(events.findIndex((e) => e.type === 'artifact'));
    // Every chunk its own event, in order, before the progress / failure that followed it.
    expect(after.map((e) => e.type)).toEqual([...Array(40).fill('artifact'), 'status', ...Array(10).fill('artifact'), 'status']);
    expect(after.at(-1)?.state).toBe('failed');
    const texts = after.filter((e) => e.type === 'artifact').map((e) => (e.payload as ReturnType<typeof chunk>).artifact.parts[0].text);
    expect(texts).toEqual(Array.from({ length: 50 }, (_, i) => `chunk ${i}\n`));
    expect(after.map((e) => e.seq)).toEqual(after.map((_, i) => after[0].seq + i));
    // The chunks went out as two changes of 40 and 10, not 50 changes.
    const mine = changes.filter((c) => c.id === id && c.types.includes('artifact')).map((c) => c.types.length);
    expect(mine).toEqual([40, 10]);
  });
});
