/**
 * The dashboard's text search looks at text (request and result), never at the
 * stored JSON of a message, where the keys "role", "kind" and "parts" occur in every task.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from '../support/in-process';

let writer: typeof import('../../lib/engine/task-writer');
let repo: typeof import('../../lib/db/task-repo');

beforeAll(async () => {
  await freshStore();
  writer = await import('../../lib/engine/task-writer');
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
});
