/**
 * The query shapes that keep the dashboard on indexes at 1M tasks (migration 0020), on both
 * providers: what they match is what the plain filter matches. The detached list (open detached
 * tasks only, through the partial index of open tasks), the agent filter's counts over a time
 * range (one count per side, added up, a task on both sides once), and a text search with the
 * agent filter past the newest-tasks window (both sides' matches, in order, the index asked once).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from '../support/in-process';
import { testStore } from '../support/postgres';
import { isTerminalState, type TaskState } from '../../lib/protocol/types';
import { toStateCounts } from '../../lib/db/state-counts';

type Repo = typeof import('../../lib/db/task-repo');
let repo: Repo;
let client: typeof import('../../lib/db/client');

const WORD = 'quokka';
const request = (text: string) => ({ kind: 'message' as const, messageId: crypto.randomUUID(), role: 'user' as const, parts: [{ kind: 'text' as const, text }] });

let serial = 0;
/** A task of `who`, its request text `text`, taken to `state` (detaching on the way when asked). */
async function task(opts: { agent?: string; peer?: string; text?: string; state?: TaskState; detached?: boolean }): Promise<string> {
  const id = `t${String(++serial).padStart(5, '0')}`;
  const text = opts.text ?? `filler ${id}`;
  await repo.insertTask(
    { id, contextId: `c-${id}`, direction: opts.peer ? 'outbound' : 'inbound', agentSlug: opts.agent, peerName: opts.peer, peerUrl: opts.peer ? 'http://127.0.0.1:9/a2a/x' : undefined, state: 'working', requestText: text },
    [{ type: 'submitted', state: 'submitted', payload: { message: request(text) } }],
  );
  if (opts.detached) await repo.appendEvents(id, [{ type: 'detached', state: 'working', payload: { reason: 'response window ended' } }], { patch: { detached: true, detachedAt: new Date() } });
  const state = opts.state ?? 'working';
  // endedAt with an end state only, as the terminal claim sets it.
  if (state !== 'working') await repo.appendEvents(id, [{ type: 'status', state, payload: {} }], { onlyIfNotTerminal: true, patch: { state, ...(isTerminalState(state) ? { endedAt: new Date() } : {}) } });
  return id;
}

/** Each task in its own millisecond, so the expected order is the insertion order. */
async function nextMillisecond(): Promise<void> {
  const at = Date.now();
  while (Date.now() <= at + 1) await new Promise((r) => setImmediate(r));
}

async function query<R>(sql: string): Promise<R[]> {
  if (client.store().kind === 'postgresql') return (await client.pgQuery(sql)).rows as R[];
  return client.sqliteTaskWriter().conn.prepare(sql).all() as R[];
}

const ids: Record<string, string> = {};

beforeAll(async () => {
  await freshStore();
  repo = await import('../../lib/db/task-repo');
  client = await import('../../lib/db/client');
  await client.storeReady();
  const plan: [string, Parameters<typeof task>[0]][] = [
    ['oldDetached', { agent: 'slow', detached: true }],
    ['endedDetached', { agent: 'slow', detached: true, state: 'completed' }],
    ['open', { agent: 'slow' }],
    ['both', { agent: 'lab', peer: 'lab' }], // a task with the agent's and the peer's name: once in every count
    ['agentMatch', { agent: 'echo', text: `an older ${WORD}` }],
    ['peerMatch', { peer: 'echo', text: `sent ${WORD}` }],
    ['askDetached', { agent: 'ask', detached: true, state: 'input-required' }],
    ['newDetached', { peer: 'lab', detached: true }],
  ];
  for (const [name, opts] of plan) {
    ids[name] = await task(opts);
    await nextMillisecond();
  }
});

describe(`the list's index-shaped filters (${testStore()})`, () => {
  it('lists the open detached tasks newest first, page after page, and not a detached task that ended', async () => {
    const { listTaskPage } = await import('../../lib/dashboard/task-list');
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 5; pages++) {
      const page = await listTaskPage({ limit: 2, state: 'detached', cursor });
      seen.push(...page.tasks.map((t) => t.id));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual([ids.newDetached, ids.askDetached, ids.oldDetached]);
  });

  it('counts the agent filter over a time range as the tasks say, a task on both sides once', async () => {
    const since = new Date(Date.now() - 3_600_000);
    for (const name of ['lab', 'slow', 'echo', 'nobody']) {
      const truth = toStateCounts(
        await query<{ state: string; detached: unknown; n: unknown }>(
          `SELECT "state", "detached", COUNT(*) AS "n" FROM "Task" WHERE ("agentSlug" = '${name}' OR "peerName" = '${name}') GROUP BY "state", "detached"`,
        ),
      );
      expect(await repo.countTasksByState({ agentOrPeer: name, since })).toEqual(truth);
    }
    expect((await repo.countTasksByState({ agentOrPeer: 'lab', since })).working).toEqual({ total: 2, detached: 1 });
    expect(await repo.countTasksByState({ agentOrPeer: 'lab', since: new Date(Date.now() + 60_000) })).toEqual({});
  });

  it("finds the agent's and the peer's matches older than the newest-tasks window, newest first", async () => {
    // More of the agent's tasks than the window the search reads before its text index
    // (sqlite/task-search.ts RECENT_WINDOW), all newer than the two older matches.
    // While both sides' windows hold all their tasks, their matches merge: newest first.
    expect((await repo.listTasks({ agentOrPeer: 'echo', search: WORD, limit: 5 })).tasks.map((t) => t.id)).toEqual([ids.peerMatch, ids.agentMatch]);
    const { RECENT_WINDOW } = await import('../../lib/db/sqlite/task-search');
    for (let i = 0; i < RECENT_WINDOW + 50; i += 200) {
      await Promise.all(Array.from({ length: Math.min(200, RECENT_WINDOW + 50 - i) }, () => task({ agent: 'echo' })));
    }
    await nextMillisecond();
    const newest = await task({ agent: 'echo', text: `the newest ${WORD}` });
    const page = await repo.listTasks({ agentOrPeer: 'echo', search: WORD, limit: 2 });
    expect(page.tasks.map((t) => t.id)).toEqual([newest, ids.peerMatch]);
    const rest = await repo.listTasks({ agentOrPeer: 'echo', search: WORD, limit: 2, cursor: page.nextCursor ?? undefined });
    expect(rest.tasks.map((t) => t.id)).toEqual([ids.agentMatch]);
    expect(rest.nextCursor).toBeNull();
    // A side whose window holds all its tasks settles the page without the index: the peer side here.
    expect((await repo.listTasks({ agentOrPeer: 'echo', search: 'sent', limit: 5 })).tasks.map((t) => t.id)).toEqual([ids.peerMatch]);
  }, 180_000);
});
