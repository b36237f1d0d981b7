/**
 * The agent filter (a served agent's slug or a peer's name) lists newest first from two
 * index walks merged, on both providers: every task of the agent and of the peer, each once (also
 * one that has both), in order, page after page.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from '../support/in-process';
import { testStore } from '../support/postgres';

let repo: typeof import('../../lib/db/task-repo');
const request = (text: string) => ({ kind: 'message' as const, messageId: crypto.randomUUID(), role: 'user' as const, parts: [{ kind: 'text' as const, text }] });
const made: string[] = [];

async function task(id: string, who: { agent?: string; peer?: string }): Promise<void> {
  await repo.insertTask(
    { id, contextId: `c-${id}`, direction: who.peer ? 'outbound' : 'inbound', agentSlug: who.agent, peerName: who.peer, peerUrl: who.peer ? 'http://127.0.0.1:9/a2a/x' : undefined, state: 'submitted', requestText: id },
    [{ type: 'submitted', state: 'submitted', payload: { message: request(id) } }],
  );
  made.push(id);
}

beforeAll(async () => {
  await freshStore();
  repo = await import('../../lib/db/task-repo');
  await (await import('../../lib/db/client')).storeReady();
  // Interleaved in time: the agent's, the peer's, both, and others that never match.
  const plan: { agent?: string; peer?: string }[] = [{ agent: 'slow' }, { peer: 'slow' }, { agent: 'echo' }, { agent: 'slow', peer: 'slow' }, { peer: 'lab' }, { peer: 'slow' }, { agent: 'slow' }];
  for (const [i, who] of plan.entries()) {
    await task(`t${i}`, who);
    // Each task in its own millisecond, so the expected order is the insertion order.
    const at = Date.now();
    while (Date.now() <= at + 1) await new Promise((r) => setImmediate(r));
  }
});

describe(`the agent filter's list (${testStore()})`, () => {
  it("pages through the agent's and the peer's tasks newest first, each once", async () => {
    const seen: string[] = [];
    let cursor: { createdAt: string; id: string } | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await repo.listTasks({ agentOrPeer: 'slow', limit: 2, cursor });
      seen.push(...page.tasks.map((t) => t.id));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(['t6', 't5', 't3', 't1', 't0']);
    expect((await repo.listTasks({ agentOrPeer: 'slow', direction: 'outbound', limit: 10 })).tasks.map((t) => t.id)).toEqual(['t5', 't3', 't1']);
  });
});
