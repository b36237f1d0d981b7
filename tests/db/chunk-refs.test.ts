/**
 * A relay's caller task stores one row per run of its child's chunks, naming the child's rows
 * (lib/db/event-refs.ts, docs/decisions.md 420), on both providers (the `postgresql` project runs
 * this file again). Written through lib/db's task writer as the relay's mirror writes them: the
 * child's committed chunk objects, marked with their rows, appended to the caller's task in runs
 * between status events, with one chunk of the caller's own. Read back from every seq, by type,
 * through readChanges, the output limit's byte count, the terminal claim's stored artifacts, and
 * the pruner, which keeps the child while the caller's log names it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore, storeQuery } from '../support/in-process';
import type { ArtifactChunk } from '../../lib/protocol/types';
import type { NewEvent, StoredEvent } from '../../lib/db/task-records';

type Client = typeof import('../../lib/db/client');
type Repo = typeof import('../../lib/db/task-repo');
type Refs = typeof import('../../lib/db/event-refs');
type Pruner = typeof import('../../lib/db/task-pruner');
let client: Client;
let repo: Repo;
let refs: Refs;
let pruner: Pruner;

const CHUNKS = 300;
const HOUR = 3_600_000;
const now = new Date();
const ago = (ms: number) => new Date(now.getTime() - ms);

const chunk = (i: number): ArtifactChunk => ({ artifact: { artifactId: 'out', parts: [{ kind: 'text', text: `chunk ${i}\n` }] }, append: i > 0, lastChunk: false });
const textOf = (events: StoredEvent[]) => events.flatMap((e) => (e.type === 'artifact' && 'artifact' in e.payload ? e.payload.artifact.parts : [])).map((p) => (p.kind === 'text' ? p.text : '')).join('');
const expected = `${Array.from({ length: CHUNKS }, (_, i) => `chunk ${i}\n`).join('')}own\n`;

const query = storeQuery;
const storedRows = async (taskId: string) => Number((await query<{ n: number | string }>('SELECT count(*) AS "n" FROM "TaskEvent" WHERE "taskId" = ?', [taskId]))[0].n);
const exists = async (taskId: string) => (await query('SELECT 1 FROM "Task" WHERE "id" = ?', [taskId])).length > 0;

async function newTask(id: string, direction: 'inbound' | 'outbound', parent?: string): Promise<void> {
  await repo.insertTask(
    { id, contextId: `ctx-${id}`, direction, ...(direction === 'inbound' ? { agentSlug: 'relay', owner: 'anonymous' } : { peerName: 'peer' }), state: 'working', requestText: id, parentTaskId: parent },
    [{ type: 'status', state: 'working', payload: {} }],
  );
}

const ending = (endedAt: Date) => ({ onlyIfNotTerminal: true, materializeArtifacts: true, patch: { state: 'completed' as const, endedAt } });

/** A child with CHUNKS chunks in several commits; its stored events, as the mirror reads them. */
async function childWithChunks(id: string, parent: string): Promise<StoredEvent[]> {
  await newTask(id, 'outbound', parent);
  for (let from = 0; from < CHUNKS; from += 70) {
    await repo.appendEvents(id, Array.from({ length: Math.min(70, CHUNKS - from) }, (_, i): NewEvent => ({ type: 'artifact', payload: chunk(from + i) })));
    await repo.appendEvents(id, [{ type: 'status', state: 'working', payload: {} }]);
  }
  return repo.listEvents(id, 0);
}

/** The caller's task: the child's chunks passed on in runs (as mirror.ts does), a status between runs, one chunk of its own. */
async function relayed(id: string, childEvents: StoredEvent[]): Promise<void> {
  await newTask(id, 'inbound');
  let run: NewEvent[] = [];
  for (const event of childEvents) {
    if (event.type === 'artifact') {
      refs.markChunkRow(event.payload, { taskId: event.taskId, seq: event.seq });
      run.push({ type: 'artifact', payload: event.payload });
    } else if (run.length) {
      await repo.appendEvents(id, run);
      await repo.appendEvents(id, [{ type: 'status', state: 'working', payload: {} }]);
      run = [];
    }
  }
  await repo.appendEvents(id, [...run, { type: 'artifact', payload: { artifact: { artifactId: 'out', parts: [{ kind: 'text', text: 'own\n' }] }, append: true, lastChunk: true } }]);
}

beforeAll(async () => {
  await freshStore();
  client = await import('../../lib/db/client');
  repo = await import('../../lib/db/task-repo');
  refs = await import('../../lib/db/event-refs');
  pruner = await import('../../lib/db/task-pruner');
  await client.storeReady();
  // The caller is created first: the child names it as its parent, as a relay's child does.
  await newTask('caller', 'inbound');
  await repo.appendEvents('caller', [{ type: 'status', state: 'working', payload: {} }]);
});

describe("a relay caller's log naming its child's chunk rows", () => {
  let all: StoredEvent[];

  it('stores a row per run, and reads back every chunk once, in order, with gap-free seqs', async () => {
    await relayed('relayed', await childWithChunks('child', 'relayed'));
    all = await repo.listEvents('relayed', 0);
    expect(textOf(all)).toBe(expected);
    expect(all.map((e) => e.seq)).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
    expect((await repo.findTask('relayed'))!.lastSeq).toBe(all.length);
    const stored = await storedRows('relayed');
    expect(stored, `${stored} rows for ${CHUNKS} relayed chunks`).toBeLessThan(20);
  });

  it('resumes after every seq (inside a run too): the rest, exactly once', async () => {
    for (let after = 0; after <= all.length; after++) {
      const rest = await repo.listEvents('relayed', after);
      expect(rest.map((e) => e.seq)).toEqual(all.slice(after).map((e) => e.seq));
      expect(textOf(rest)).toBe(textOf(all.slice(after)));
    }
  });

  it('reads by type and through readChanges the same', async () => {
    const artifacts = await repo.listEvents('relayed', 100, ['artifact']);
    expect(artifacts.map((e) => e.seq)).toEqual(all.filter((e) => e.seq > 100 && e.type === 'artifact').map((e) => e.seq));
    expect((await repo.listEvents('relayed', 0, ['status'])).every((e) => e.type === 'status')).toBe(true);
    const changes = await repo.readChanges([{ taskId: 'relayed', afterSeq: 150 }, { taskId: 'caller', afterSeq: 0 }], ['relayed']);
    expect(changes.events.filter((e) => e.taskId === 'relayed').map((e) => e.seq)).toEqual(all.slice(150).map((e) => e.seq));
    expect(textOf(changes.events.filter((e) => e.taskId === 'relayed'))).toBe(textOf(all.slice(150)));
  });

  it("counts the referenced chunks' bytes for the output limit", async () => {
    const reader = client.taskReader();
    const childBytes = await reader.artifactBytes('child');
    const own = JSON.stringify({ artifact: { artifactId: 'out', parts: [{ kind: 'text', text: 'own\n' }] }, append: true, lastChunk: true }).length;
    expect(await reader.artifactBytes('relayed')).toBe(childBytes + own);
  });

  it("stores the whole artifact at the terminal claim, and the pruner keeps the child while the caller's log names it", async () => {
    await repo.appendEvents('child', [{ type: 'status', state: 'completed', payload: {} }], ending(ago(3 * HOUR)));
    await repo.appendEvents('relayed', [{ type: 'status', state: 'completed', payload: {} }], ending(ago(10_000)));
    const stored = await repo.listStoredArtifacts('relayed');
    expect(stored.flatMap((a) => a.parts).map((p) => (p.kind === 'text' ? p.text : '')).join('')).toBe(expected);
    // A child of a caller that names none of its rows goes as before.
    await newTask('plain-child', 'outbound', 'caller');
    await repo.appendEvents('plain-child', [{ type: 'status', state: 'completed', payload: {} }], ending(ago(3 * HOUR)));

    await pruner.pruneFinishedTasks(HOUR, now);
    expect(await exists('plain-child')).toBe(false);
    expect(await exists('child')).toBe(true);
    expect(textOf(await repo.listEvents('relayed', 0))).toBe(expected);

    const later = new Date(now.getTime() + 2 * HOUR);
    await pruner.pruneFinishedTasks(HOUR, later);
    await pruner.pruneFinishedTasks(HOUR, later);
    expect([await exists('relayed'), await exists('child')]).toEqual([false, false]);
  });
});
