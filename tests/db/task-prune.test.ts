/**
 * Finished tasks older than the retention are pruned with everything that belongs to
 * them, on both providers (the `postgresql` Vitest project runs this file again). Tasks are
 * written through lib/db's task writer; a task never deleted: one still open (submitted,
 * working, detached, input-required), one with an open descendant (also a grandparent), one with
 * a push delivery or notification still pending, and one that ended inside the retention.
 * A ListTasks page token outlives the task it points at: it is a keyset cursor.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore, storeQuery } from '../support/in-process';
import { testStore } from '../support/postgres';
import type { TaskState } from '../../lib/protocol/types';

type Client = typeof import('../../lib/db/client');
type Repo = typeof import('../../lib/db/task-repo');
type Pruner = typeof import('../../lib/db/task-pruner');
let client: Client;
let repo: Repo;
let pruner: Pruner;

const HOUR = 3_600_000;
const now = new Date();
const ago = (ms: number) => new Date(now.getTime() - ms);

const query = storeQuery;

const taskIds = async () => (await query<{ id: string }>('SELECT "id" FROM "Task" ORDER BY "id"')).map((r) => r.id);
const rowsOf = async (table: string, taskId: string) => Number((await query<{ n: number | string }>(`SELECT count(*) AS "n" FROM "${table}" WHERE "taskId" = ?`, [taskId]))[0].n);

const text = (t: string, role: 'user' | 'agent' = 'user') => ({ kind: 'message' as const, messageId: crypto.randomUUID(), role, parts: [{ kind: 'text' as const, text: t }] });

/** A task created, worked on (an artifact chunk) and, unless `state` is open, ended `endedMsAgo` ago. */
async function task(id: string, state: TaskState, endedMsAgo = 2 * HOUR, opts: { parent?: string; detached?: boolean; agentSlug?: string; owner?: string } = {}): Promise<void> {
  const request = text(`request ${id}`);
  await repo.insertTask({ id, contextId: `ctx-${id}`, direction: 'inbound', agentSlug: opts.agentSlug ?? 'echo', owner: opts.owner, state: 'submitted', requestText: id, parentTaskId: opts.parent }, [{ type: 'submitted', state: 'submitted', payload: { message: request } }], [request]);
  await repo.appendEvents(id, [
    { type: 'status', state: 'working', payload: {} },
    { type: 'artifact', payload: { artifact: { artifactId: 'a', parts: [{ kind: 'text', text: `result of ${id}` }] }, lastChunk: true } },
  ], { patch: { state: 'working' } });
  if (opts.detached) await repo.appendEvents(id, [{ type: 'detached', state: 'working', payload: { reason: 'response window ended' } }], { patch: { detached: true, detachedAt: ago(3 * HOUR) } });
  if (state === 'working' || state === 'submitted') return;
  const end = text(`${id} ${state}`, 'agent');
  const terminal = ['completed', 'failed', 'canceled', 'rejected'].includes(state);
  await repo.appendEvents(id, [{ type: 'status', state, payload: { message: end } }], {
    onlyIfNotTerminal: true,
    materializeArtifacts: terminal,
    messages: [end],
    patch: { state, statusMessage: end, ...(terminal ? { endedAt: ago(endedMsAgo) } : {}) },
  });
}

async function end(id: string): Promise<void> {
  await repo.appendEvents(id, [{ type: 'status', state: 'completed', payload: {} }], { onlyIfNotTerminal: true, materializeArtifacts: true, patch: { state: 'completed', endedAt: now } });
}

beforeAll(async () => {
  await freshStore();
  client = await import('../../lib/db/client');
  repo = await import('../../lib/db/task-repo');
  pruner = await import('../../lib/db/task-pruner');
  await client.storeReady();
  for (const s of ['completed', 'failed', 'canceled', 'rejected'] as const) await task(`old-${s}`, s);
  await task('old-completed-2', 'completed', 30 * 24 * HOUR);
  await task('recent-completed', 'completed', 60_000);
  await task('open-working', 'working');
  await task('open-submitted', 'submitted');
  await task('open-detached', 'working', 0, { detached: true });
  await task('open-input-required', 'input-required');
  // A finished grandparent and parent of an open task, and a finished family with nothing open.
  await task('tree-grandparent', 'completed');
  await task('tree-parent', 'completed', 2 * HOUR, { parent: 'tree-grandparent' });
  await task('tree-child', 'working', 0, { parent: 'tree-parent' });
  await task('done-parent', 'completed');
  await task('done-child', 'completed', 2 * HOUR, { parent: 'done-parent' });
  // Old and finished, but with work still to send; and one whose sends are all finished.
  await task('pending-push', 'completed');
  await task('pending-notification', 'completed');
  await task('sent-push', 'completed');
  const at = ago(2 * HOUR).toISOString();
  await query('INSERT INTO "PushDelivery" ("taskId","configId","seq","state","owner","nextAttemptAt","createdAt") VALUES (\'pending-push\', \'c\', 4, \'pending\', \'me\', ?, ?)', [at, at]);
  await query('INSERT INTO "PushDelivery" ("taskId","configId","seq","state","owner","nextAttemptAt","createdAt") VALUES (\'sent-push\', \'c\', 4, \'delivered\', \'me\', ?, ?)', [at, at]);
  await query('INSERT INTO "NotificationDelivery" ("id","taskId","rule","event","seq","url","format","payload","state","owner","nextAttemptAt","createdAt") VALUES (\'n1\', \'pending-notification\', \'r\', \'task-failed\', 4, \'https://example.com\', \'json\', \'{}\', \'pending\', \'me\', ?, ?)', [at, at]);
});

describe(`pruning finished tasks (${testStore()})`, () => {
  it('deletes the tasks that ended before the retention, with their events, messages, artifacts and outbox rows, in batches', async () => {
    for (const table of ['TaskEvent', 'Message', 'Artifact']) expect(await rowsOf(table, 'old-completed')).toBeGreaterThan(0);
    const pruned = await pruner.pruneFinishedTasks(HOUR, now, 2); // two per statement: several batches
    expect(pruned).toBe(8);
    expect(await taskIds()).toEqual(
      [
        'open-detached', 'open-input-required', 'open-submitted', 'open-working', 'pending-notification', 'pending-push', 'recent-completed',
        'tree-child', 'tree-grandparent', 'tree-parent',
      ].sort(),
    );
    for (const id of ['old-completed', 'old-failed', 'done-parent', 'done-child', 'sent-push']) {
      for (const table of ['TaskEvent', 'Message', 'Artifact', 'PushDelivery']) expect(await rowsOf(table, id)).toBe(0);
    }
    // What stays is whole.
    expect(await rowsOf('TaskEvent', 'tree-grandparent')).toBe(4);
    expect(await rowsOf('Artifact', 'recent-completed')).toBe(1);
  });

  it('deletes nothing twice (again, or two at once), and a family once its last open task has ended', async () => {
    expect(await pruner.pruneFinishedTasks(HOUR, now)).toBe(0);
    await end('tree-child'); // ended now: inside the retention, while its elders are long over
    const both = await Promise.all([pruner.pruneFinishedTasks(HOUR, now, 1), pruner.pruneFinishedTasks(HOUR, now, 1)]);
    expect(both[0] + both[1]).toBe(2);
    expect(await taskIds()).not.toContain('tree-grandparent');
    expect(await taskIds()).not.toContain('tree-parent');
    expect(await taskIds()).toContain('tree-child');
    // A day later the recent ones are old too; the open ones and the pending work still stay.
    const later = new Date(now.getTime() + 24 * HOUR);
    expect(await pruner.pruneFinishedTasks(HOUR, later)).toBe(2);
    expect(await taskIds()).toEqual(['open-detached', 'open-input-required', 'open-submitted', 'open-working', 'pending-notification', 'pending-push']);
  });
});

describe(`pacing a prune (${testStore()})`, () => {
  it('rests after each full batch nine times as long as the statement took (a tenth of the time pruning)', async () => {
    const { deleteInBatches } = await import('../../lib/db/prune-batches');
    for (const id of ['paced-1', 'paced-2', 'paced-3']) await task(id, 'completed');
    const rests: number[] = [];
    const cutoff = new Date(now.getTime() - HOUR).toISOString().replace('Z', '+00:00');
    const started = performance.now();
    const deleted = await deleteInBatches(pruner.TASK_PRUNE, [cutoff], 1, { rest: async (ms) => rests.push(ms) });
    const elapsed = performance.now() - started;
    expect(deleted).toBe(3);
    expect(rests).toHaveLength(3); // after each full batch; the fourth came back empty
    for (const ms of rests) expect(ms).toBeGreaterThan(0);
    expect(rests.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(9 * elapsed); // nine tenths of three statements' time, at most
  });
});

describe(`ListTasks paging across a prune (${testStore()})`, () => {
  it('a page token survives the deletion of the task it points at: the next page starts after it', async () => {
    const { listInboundTasks } = await import('../../lib/server/list-tasks');
    const scope = { kind: 'caller', agentSlug: 'lister', owner: 'lister-key', direction: 'inbound' } as const;
    const mine = { agentSlug: scope.agentSlug, owner: scope.owner };
    // Newest first: list-5, list-4 | list-3, list-2 | list-1. Only list-4 (the first page's last) is old and ended.
    for (const n of [1, 2, 3]) await task(`list-${n}`, 'working', 0, mine);
    await task('list-4', 'completed', 2 * HOUR, mine);
    await task('list-5', 'working', 0, mine);
    const ids = (page: { tasks: unknown[] }) => page.tasks.map((t) => (t as { id: string }).id);
    const first = await listInboundTasks(scope, { pageSize: 2 }, '1.0');
    expect(ids(first)).toEqual(['list-5', 'list-4']);
    expect(await pruner.pruneFinishedTasks(HOUR, now)).toBeGreaterThanOrEqual(1);
    expect(await taskIds()).not.toContain('list-4');
    const second = await listInboundTasks(scope, { pageSize: 2, pageToken: first.nextPageToken }, '1.0');
    expect(ids(second)).toEqual(['list-3', 'list-2']);
    const third = await listInboundTasks(scope, { pageSize: 2, pageToken: second.nextPageToken }, '1.0');
    expect(ids(third)).toEqual(['list-1']);
    expect(third.nextPageToken).toBe('');
  });
});
