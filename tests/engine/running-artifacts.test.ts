/**
 * The terminal claim materialises artifacts from RunningArtifacts when it saw every event of the
 * task, and from the event log otherwise; both must store the same result, and a rolled-back
 * batch must not leave chunks in the cache that the database does not hold.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useFreshDatabase } from '../support/in-process';
import type { ArtifactChunk } from '../../lib/protocol/types';

type Writer = typeof import('../../lib/engine/core/task-writer');
type Repo = typeof import('../../lib/db/task-repo');
type Client = typeof import('../../lib/db/client');
let writer: Writer;
let repo: Repo;
let client: Client;

beforeAll(async () => {
  useFreshDatabase();
  writer = await import('../../lib/engine/core/task-writer');
  repo = await import('../../lib/db/task-repo');
  client = await import('../../lib/db/client');
});

const chunk = (artifactId: string, text: string, append: boolean): ArtifactChunk => ({ artifact: { artifactId, parts: [{ kind: 'text', text }] }, append });

async function newTask(id: string): Promise<void> {
  await writer.createTaskRecord({ id, contextId: `ctx-${id}`, direction: 'inbound', agentSlug: 'echo', state: 'working', requestText: 'hi' }, [
    { type: 'status', state: 'working', payload: {} },
  ]);
}

async function streamAndComplete(id: string, beforeClaim = () => {}): Promise<string[]> {
  const writes: Promise<unknown>[] = [];
  for (let i = 0; i < 300; i++) writes.push(writer.recordEvents(id, [{ type: 'artifact', payload: chunk('main', `${i},`, i > 0) }], { onlyIfStateIn: ['working'] }));
  writes.push(writer.recordEvents(id, [{ type: 'artifact', payload: chunk('side', 'replaced', false) }]));
  writes.push(writer.recordEvents(id, [{ type: 'artifact', payload: chunk('side', 'final', false) }]));
  await Promise.all(writes);
  beforeClaim();
  await writer.claimTerminal(id, { state: 'completed' });
  const stored = await repo.listStoredArtifacts(id);
  return stored.map((a) => `${a.artifactId}:${a.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('')}`);
}

const expected = [`main:${Array.from({ length: 300 }, (_, i) => `${i},`).join('')}`, 'side:final'];

describe('materialised artifacts', () => {
  it('come from the running cache when it saw every event, and match the log', async () => {
    await newTask('cached');
    expect(client.sqliteTaskWriter().running.size).toBeGreaterThan(0);
    // The log is changed behind the writer's back: a materialisation that re-read it would show it.
    const tamper = () => {
      client.sqliteTaskWriter().conn.prepare('UPDATE "TaskEvent" SET "payload" = ? WHERE "taskId" = \'cached\' AND "type" = \'artifact\'').run(JSON.stringify(chunk('main', 'x', true)));
    };
    expect(await streamAndComplete('cached', tamper)).toEqual(expected);
    expect((await repo.findTask('cached'))!.resultText).toBe(`${expected[0].slice(5)}\nfinal`);
    // The claim consumed the entry.
    await newTask('probe');
    const sizeWithProbe = client.sqliteTaskWriter().running.size;
    await writer.claimTerminal('probe', { state: 'completed' });
    expect(client.sqliteTaskWriter().running.size).toBe(sizeWithProbe - 1);
  });

  it('come from the event log when the cache missed an event (a write it did not see)', async () => {
    await newTask('gap');
    // An event written behind the writer's back: the cache no longer covers the task.
    client.sqliteTaskWriter().conn.prepare('UPDATE "Task" SET "lastSeq" = "lastSeq" + 1 WHERE "id" = \'gap\'').run();
    client.sqliteTaskWriter().conn
      .prepare('INSERT INTO "TaskEvent" ("taskId","seq","type","state","payload","at") VALUES (\'gap\', 2, \'artifact\', NULL, ?, \'2026-01-01T00:00:00.000+00:00\')')
      .run(JSON.stringify(chunk('early', 'from the log', false)));
    const stored = await streamAndComplete('gap');
    expect(stored).toEqual(['early:from the log', ...expected]);
  });

  it('hold only committed chunks after a batch fails to commit', async () => {
    await newTask('rolled-back');
    await writer.recordEvents('rolled-back', [{ type: 'artifact', payload: chunk('main', 'kept,', false) }]);
    // A write in the same batch that makes the COMMIT fail (a deferred foreign-key violation):
    // the whole batch, including the next chunk, is rolled back.
    const tw = client.sqliteTaskWriter();
    const queue = (tw as unknown as { queue: { enqueue: (w: () => unknown) => Promise<unknown> } }).queue;
    const lost = writer.recordEvents('rolled-back', [{ type: 'artifact', payload: chunk('main', 'lost', true) }]);
    const breaker = queue.enqueue(() => {
      tw.conn.pragma('defer_foreign_keys = ON');
      tw.conn.prepare('INSERT INTO "TaskEvent" ("taskId","seq","type","state","payload","at") VALUES (\'no-such-task\', 1, \'status\', NULL, \'null\', \'2026-01-01T00:00:00.000+00:00\')').run();
    });
    await expect(lost).rejects.toThrow(/FOREIGN KEY/);
    await expect(breaker).rejects.toThrow(/FOREIGN KEY/);
    await writer.claimTerminal('rolled-back', { state: 'completed' });
    const stored = await repo.listStoredArtifacts('rolled-back');
    expect(stored.map((a) => a.parts.map((p) => (p.kind === 'text' ? p.text : '')).join(''))).toEqual(['kept,']);
    expect((await repo.listEvents('rolled-back')).filter((e) => e.type === 'artifact')).toHaveLength(1);
  });
});
