/**
 * The task store's contract, on both providers (the `postgresql` Vitest project runs this file
 * again on a real PostgreSQL): group commit, a failing write rejects alone, the guarded append
 * is a compare-and-set, seqs are gapless, and both read paths (hot-path reads and Prisma) map a
 * task to the same record.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from '../support/in-process';
import { testStore } from '../support/postgres';

type Repo = typeof import('../../lib/db/task-repo');
type Client = typeof import('../../lib/db/client');
type Counter = typeof import('../../lib/db/query-counter');
let repo: Repo;
let client: Client;
let counter: Counter;

beforeAll(async () => {
  await freshStore({ SWITCHBOARD_QUERY_LOG: '1' });
  repo = await import('../../lib/db/task-repo');
  client = await import('../../lib/db/client');
  counter = await import('../../lib/db/query-counter');
  await client.storeReady();
});

const newTask = (id: string, requestText = 'hello world') => ({ id, contextId: `ctx-${id}`, direction: 'inbound' as const, agentSlug: 'echo', state: 'submitted' as const, requestText });
const request = { kind: 'message' as const, messageId: 'first', role: 'user' as const, parts: [{ kind: 'text' as const, text: 'first' }] };
const submitted = { type: 'submitted' as const, state: 'submitted' as const, payload: { message: request } };

describe(`the task store (${testStore()})`, () => {
  it('is the provider this run tests', () => {
    expect(client.store().kind).toBe(testStore());
  });

  it('group-commits concurrent changes: fewer commits than writes, every write durable', async () => {
    const before = counter.queryCounts();
    const ids = Array.from({ length: 50 }, (_, i) => `gc-${i}`);
    await Promise.all(ids.map((id) => repo.insertTask(newTask(id), [submitted])));
    const after = counter.queryCounts();
    expect(after.writes - before.writes).toBe(50);
    expect(after.commits - before.commits).toBeLessThan(50);
    for (const id of ids) expect((await repo.findTask(id))?.lastSeq).toBe(1);
  });

  it('a write that fails rejects alone; the others in its batch commit', async () => {
    await repo.insertTask(newTask('dup'), [submitted]);
    const results = await Promise.allSettled([
      repo.insertTask(newTask('ok-1'), [submitted]),
      repo.insertTask(newTask('dup'), [submitted]),
      repo.appendEvents('ok-1', [{ type: 'status', state: 'working', payload: {} }], { patch: { state: 'working' } }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await repo.findTask('ok-1'))?.state).toBe('working');
    expect((await repo.listEvents('dup')).length).toBe(1);
  });

  it('the guarded append is a compare-and-set: of racing terminal claims exactly one wins', async () => {
    await repo.insertTask(newTask('cas'), [submitted]);
    const claims = await Promise.all(
      (['completed', 'failed', 'canceled'] as const).map((state) =>
        repo.appendEvents('cas', [{ type: 'status', state, payload: {} }], { onlyIfNotTerminal: true, materializeArtifacts: true, patch: { state, endedAt: new Date() } }),
      ),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    const events = await repo.listEvents('cas');
    expect(events.map((e) => e.seq)).toEqual([1, 2]);
    expect((await repo.findTask('cas'))?.state).toBe(events[1].state);
  });

  it('merged stream chunks get gapless seqs, and the claim materialises their artifact', async () => {
    await repo.insertTask(newTask('stream'), [submitted]);
    const chunk = (i: number) => ({ type: 'artifact' as const, payload: { artifact: { artifactId: 'a', parts: [{ kind: 'text' as const, text: `c${i} ` }] }, append: i > 0, lastChunk: i === 99 } });
    const writes = Array.from({ length: 100 }, (_, i) => repo.appendEvents('stream', [chunk(i)], { onlyIfNotTerminal: true }));
    const seqs = (await Promise.all(writes)).map((c) => c!.events[0].seq);
    expect(seqs).toEqual(Array.from({ length: 100 }, (_, i) => i + 2));
    await repo.appendEvents('stream', [{ type: 'status', state: 'completed', payload: {} }], { onlyIfNotTerminal: true, materializeArtifacts: true, patch: { state: 'completed' } });
    const [artifact] = await repo.listStoredArtifacts('stream');
    // Appended plain text is stored as one part: the 100 chunks in order.
    expect(artifact.parts).toEqual([{ kind: 'text', text: Array.from({ length: 100 }, (_, i) => `c${i} `).join('') }]);
    expect((await repo.findTask('stream'))?.resultText.startsWith('c0 ')).toBe(true);
  });

  it('a chunk committed behind the cache (as by another instance) still ends up in the artifact', async () => {
    await repo.insertTask(newTask('gap'), [submitted]);
    const chunk = (text: string, append: boolean) => ({ artifact: { artifactId: 'a', parts: [{ kind: 'text' as const, text }] }, append });
    await repo.appendEvents('gap', [{ type: 'artifact', payload: chunk('one ', false) }], { onlyIfNotTerminal: true });
    // Another writer appends seq 3: this process's cache of the running artifacts did not see it.
    const foreign = ['gap', 3, 'artifact', null, JSON.stringify(chunk('two ', true)), new Date().toISOString()];
    if (client.store().kind === 'postgresql') {
      const pool = client.pgStore().pool;
      await pool.query('UPDATE "Task" SET "lastSeq" = 3 WHERE "id" = \'gap\'');
      await pool.query('INSERT INTO "TaskEvent" ("taskId","seq","type","state","payload","at") VALUES ($1,$2,$3,$4,$5,$6)', foreign);
    } else {
      const conn = client.sqliteTaskWriter().conn;
      conn.prepare('UPDATE "Task" SET "lastSeq" = 3 WHERE "id" = \'gap\'').run();
      conn.prepare('INSERT INTO "TaskEvent" ("taskId","seq","type","state","payload","at") VALUES (?,?,?,?,?,?)').run(...foreign);
    }
    const end = { type: 'artifact' as const, payload: chunk('three', true) };
    await repo.appendEvents('gap', [end, { type: 'status', state: 'completed', payload: {} }], { onlyIfNotTerminal: true, materializeArtifacts: true, patch: { state: 'completed' } });
    const [artifact] = await repo.listStoredArtifacts('gap');
    expect(artifact.parts.map((p) => (p as { text: string }).text).join('')).toBe('one two three');
    expect((await repo.findTask('gap'))?.resultText).toBe('one two three');
  });

  it('messages keep their order; the most recent ones are a suffix', async () => {
    const m = (i: number) => ({ kind: 'message' as const, messageId: `m${i}`, role: 'user' as const, parts: [{ kind: 'text' as const, text: `${i}` }] });
    await repo.insertTask(newTask('msgs'), [submitted], [m(0), m(1), m(2)]);
    await repo.appendEvents('msgs', [{ type: 'message', payload: { message: m(3) } }], { messages: [m(3), m(4)] });
    expect((await repo.listMessages('msgs')).map((x) => x.messageId)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect((await repo.listMessages('msgs', 2)).map((x) => x.messageId)).toEqual(['m3', 'm4']);
  });

  it('a task read with its parts equals its separate reads (one round trip on PostgreSQL)', async () => {
    const before = counter.queryCounts().reads;
    const read = await repo.findTaskWithParts('stream', 2);
    if (client.store().kind === 'postgresql') expect(counter.queryCounts().reads - before).toBe(1);
    expect(read?.task).toEqual(await repo.findTask('stream'));
    expect(read?.storedArtifacts).toEqual(await repo.listStoredArtifacts('stream'));
    expect(read?.history).toEqual(await repo.listMessages('stream', 2));
    const msgs = await repo.findTaskWithParts('msgs');
    expect(msgs?.history.map((m) => m.messageId)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect((await repo.findTaskWithParts('msgs', 0))?.history).toEqual([]);
    expect(await repo.findTaskWithParts('no-such-task')).toBeNull();
  });

  it("several tasks' events after their own seqs, then their rows, in one read (the relay's coalesced reads)", async () => {
    const status = (state: 'working' | 'completed') => ({ type: 'status' as const, state, payload: {} });
    await repo.insertTask(newTask('many-a'), [submitted, status('working')]);
    await repo.insertTask(newTask('many-b'), [submitted, status('working'), status('completed')]);
    const before = counter.queryCounts().reads;
    const { events, tasks } = await repo.readChanges(
      [
        { taskId: 'many-a', afterSeq: 1 },
        { taskId: 'many-b', afterSeq: 0 },
        { taskId: 'no-such-task', afterSeq: 0 },
      ],
      ['many-b', 'many-a', 'no-such-task'],
    );
    if (client.store().kind === 'postgresql') expect(counter.queryCounts().reads - before).toBe(2);
    expect(events.map((e) => `${e.taskId}#${e.seq}`).sort()).toEqual(['many-a#2', 'many-b#1', 'many-b#2', 'many-b#3']);
    expect(events.filter((e) => e.taskId === 'many-b')).toEqual(await repo.listEvents('many-b'));
    expect(new Map(tasks.map((t) => [t.id, t]))).toEqual(new Map([['many-a', await repo.findTask('many-a')], ['many-b', await repo.findTask('many-b')]]));
    expect(await repo.readChanges([], [])).toEqual({ events: [], tasks: [] });
    expect((await repo.readChanges([], ['many-a'])).tasks.map((t) => t.id)).toEqual(['many-a']);
  });

  it('hot-path reads and Prisma map a task to the same record (times in UTC)', async () => {
    await repo.insertTask(newTask('same', 'Find ME please'), [submitted]);
    await repo.appendEvents('same', [{ type: 'detached', payload: { reason: 'test' } }], { patch: { detached: true, detachedAt: new Date('2026-01-02T03:04:05.678Z'), metadata: { a: 1 } } });
    const hot = await repo.findTask('same');
    const { tasks } = await repo.listTasks({ search: 'find me', limit: 10 });
    expect(tasks).toEqual([hot]);
    expect(hot?.detachedAt).toBe('2026-01-02T03:04:05.678Z');
    expect(Math.abs(Date.parse(hot!.createdAt) - Date.now())).toBeLessThan(60_000);
    const [event] = await repo.listEvents('same', 1);
    expect(event.at).toBe(hot?.updatedAt);
  });

  it('records the owner; a context joined by another owner or agent is refused, and of racing claims one wins', async () => {
    const scope = await import('../../lib/db/task-scope');
    const records = await import('../../lib/db/task-records');
    const owned = (id: string, owner: string, agentSlug = 'echo') => ({ ...newTask(id), contextId: 'ctx-shared', agentSlug, owner, ownerName: `${owner}-name`, joinsContext: true });
    await repo.insertTask(owned('own-1', 'key-a'), [submitted]);
    await repo.insertTask(owned('own-2', 'key-a'), [submitted]);
    for (const foreign of [owned('own-3', 'key-b'), owned('own-4', 'key-a', 'other-agent')]) {
      const refused = await repo.insertTask(foreign, [submitted]).catch((e: unknown) => e);
      expect(records.isContextTaken(refused), foreign.id).toBe(true);
      expect(await repo.findTask(foreign.id)).toBeNull();
    }
    const first = await repo.findTask('own-1');
    expect([first?.owner, first?.ownerName]).toEqual(['key-a', 'key-a-name']);

    const racing = await Promise.allSettled(['key-c', 'key-d', 'key-e'].map((owner, i) => repo.insertTask({ ...owned(`race-${i}`, owner), contextId: 'ctx-race' }, [submitted])));
    expect(racing.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of racing) if (r.status === 'rejected') expect(records.isContextTaken(r.reason)).toBe(true);

    const a = scope.callerScope('echo', 'key-a');
    expect((await repo.findTaskInScope('own-1', a))?.id).toBe('own-1');
    expect(await repo.findTaskInScope('own-1', scope.callerScope('echo', 'key-b'))).toBeNull();
    expect((await repo.listTasksInScope(a, { limit: 10 })).tasks.map((t) => t.id).sort()).toEqual(['own-1', 'own-2']);
    expect(await repo.countTasksInScope(a, {})).toBe(2);
  });
});
