/**
 * The open-task quota (lib/quotas/caller-quotas.ts) asks the store how many open tasks a caller
 * has, counted only up to its limit: a caller with thousands of open tasks must not make every
 * new send count all of them (10,000 detached tasks). Both providers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from '../support/in-process';
import { testStore } from '../support/postgres';
import type { TaskState } from '../../lib/protocol/types';

let repo: typeof import('../../lib/db/task-repo');
let quotaRepo: typeof import('../../lib/db/quota-repo');

const request = (text: string) => ({ kind: 'message' as const, messageId: crypto.randomUUID(), role: 'user' as const, parts: [{ kind: 'text' as const, text }] });

/** Each caller's open inbound tasks, as beforeAll writes them (alice's sixth has ended). */
const OPEN_TASKS = { alice: 5, bob: 1, nobody: 0 };

let serial = 0;
async function task(owner: string, state: TaskState): Promise<void> {
  const id = `q${++serial}`;
  await repo.insertTask({ id, contextId: `c-${id}`, direction: 'inbound', agentSlug: 'slow', owner, state: 'submitted', requestText: id }, [
    { type: 'submitted', state: 'submitted', payload: { message: request(id) } },
  ]);
  if (state !== 'submitted') await repo.appendEvents(id, [{ type: 'status', state, payload: {} }], { patch: { state, ...(state === 'completed' ? { endedAt: new Date() } : {}) } });
}

beforeAll(async () => {
  await freshStore();
  repo = await import('../../lib/db/task-repo');
  quotaRepo = await import('../../lib/db/quota-repo');
  await (await import('../../lib/db/client')).storeReady();
  for (const state of ['submitted', 'working', 'working', 'input-required', 'working'] as const) await task('alice', state);
  await task('alice', 'completed');
  await task('bob', 'working');
});

describe(`the open-task quota's bound, from the tallies while the hub is below the limit (${testStore()})`, () => {
  it("answers with the hub's open inbound tasks while they are fewer than the limit", async () => {
    // Six open inbound tasks on the hub (alice's five, bob's one): at least either caller's count.
    expect(await quotaRepo.openTasksUpTo('bob', 100)).toBe(6);
    expect(await quotaRepo.openTasksUpTo('alice', 7)).toBe(6);
  });

  it("counts the caller's own once the hub's reach the limit", async () => {
    expect(await quotaRepo.openTasksUpTo('bob', 6)).toBe(1);
    expect(await quotaRepo.openTasksUpTo('alice', 6)).toBe(5);
    expect(await quotaRepo.openTasksUpTo('alice', 3)).toBe(3);
  });

  it('is below the limit exactly when the caller is, at every limit', async () => {
    for (const [owner, open] of Object.entries(OPEN_TASKS)) {
      for (let limit = 1; limit <= 8; limit++) {
        expect(await quotaRepo.openTasksUpTo(owner, limit) >= limit, `${owner} at ${limit}`).toBe(open >= limit);
      }
    }
  });
});
