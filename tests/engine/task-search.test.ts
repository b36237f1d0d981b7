/**
 * The dashboard's text search looks at text (request and result), never at the
 * stored JSON of a message, where the keys "role", "kind" and "parts" occur in every task.
 * Search is indexed (SQLite: a trigram index narrowing the LIKE; PostgreSQL: trigram
 * GIN indexes under the ILIKE) and matches what it matched before: any substring, ASCII case
 * ignored, `%` and `_` literally, one or two characters too, in the result text once written.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from '../support/in-process';

let writer: typeof import('../../lib/engine/core/task-writer');
let repo: typeof import('../../lib/db/task-repo');

beforeAll(async () => {
  await freshStore();
  writer = await import('../../lib/engine/core/task-writer');
  repo = await import('../../lib/db/task-repo');
});

describe('dashboard text search', () => {
  it('matches the request text, not the JSON keys of the status message', async () => {
    const id = crypto.randomUUID();
    const message = { kind: 'message' as const, messageId: crypto.randomUUID(), role: 'agent' as const, parts: [{ kind: 'text' as const, text: 'asking' }] };
    await writer.createTaskRecord({ id, contextId: crypto.randomUUID(), direction: 'inbound', agentSlug: 'echo', state: 'submitted', requestText: 'zephyr invoice' }, [
      { type: 'submitted', state: 'submitted', payload: { message } },
    ]);
    await writer.recordEvents(id, [{ type: 'status', state: 'input-required', payload: { message } }]);

    const ids = async (search: string) => (await repo.listTasks({ search, limit: 10 })).tasks.map((t) => t.id);
    expect(await ids('zephyr')).toEqual([id]);
    for (const key of ['role', 'kind', 'parts', 'messageId']) expect(await ids(key), key).toEqual([]);
    expect(await repo.countTasks({ search: 'role' })).toBe(0);
  });

  it('matches a substring of request or result text, any ASCII case, wildcards literally, from the newest tasks or the index', async () => {
    const made: string[] = [];
    const create = async (requestText: string, result?: string) => {
      const id = crypto.randomUUID();
      made.push(id);
      await writer.createTaskRecord({ id, contextId: crypto.randomUUID(), direction: 'inbound', agentSlug: 'echo', state: 'submitted', requestText }, [{ type: 'submitted', state: 'submitted', payload: { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: requestText }] } } }]);
      if (result === undefined) return id;
      await writer.recordEvents(id, [{ type: 'artifact', payload: { artifact: { artifactId: 'r', parts: [{ kind: 'text', text: result }] }, lastChunk: true } }]);
      await writer.recordEvents(id, [{ type: 'status', state: 'completed', payload: {} }], { onlyIfNotTerminal: true, materializeArtifacts: true });
      return id;
    };
    const quarterly = await create('Quarterly REPORT for acme');
    const discount = await create('discount of 50% applied');
    const underscore = await create('file my_notes.txt');
    const resulted = await create('translate this', 'Bonjour from the translator');
    const ids = async (search: string, limit = 10) => (await repo.listTasks({ search, limit })).tasks.map((t) => t.id);

    expect(await ids('terly rep')).toEqual([quarterly]); // inside words, across a space, any case
    expect(await ids('QUARTERLY report')).toEqual([quarterly]);
    expect(await ids('bonjour')).toEqual([resulted]); // the result text, written when the task ended
    expect(await ids('50%')).toEqual([discount]);
    expect(await ids('5%')).toEqual([]); // % is not a wildcard
    expect(await ids('y_n')).toEqual([underscore]);
    expect(await ids('y_no')).toEqual([underscore]);
    expect(await ids('ynotes')).toEqual([]);
    expect(await ids('_')).toEqual([underscore]); // shorter than a trigram
    expect(await repo.countTasks({ search: 'report' })).toBe(1);

    // Two pages of a frequent text: newest first, the cursor goes on where the first page ended.
    const common: string[] = [];
    for (const text of ['common words here', 'more common words', 'common again']) {
      // Each in its own millisecond: the list's order is createdAt, then the (random) id.
      const at = Date.now();
      while (Date.now() <= at + 1) await new Promise((r) => setImmediate(r));
      common.push(await create(text));
    }
    const first = await repo.listTasks({ search: 'common', limit: 2 });
    expect(first.tasks.map((t) => t.id)).toEqual([common[2], common[1]]);
    const second = await repo.listTasks({ search: 'common', limit: 2, cursor: first.nextCursor ?? undefined });
    expect(second.tasks.map((t) => t.id)).toEqual([common[0]]);
    expect(second.nextCursor).toBeNull();
    expect(await repo.countTasks({ search: 'COMMON' })).toBe(3);
    expect((await repo.countTasksByState({ search: 'common' })).submitted).toEqual({ total: 3, detached: 0 });
  });
});
