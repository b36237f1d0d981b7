/**
 * The database session store keeps one session per (agent, owner, context), marks
 * an entry used when read, and keeps at most `capacity` per agent, least recently used dropped.
 * On both providers (vitest.config.mts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from '../support/in-process';
import { testStore } from '../support/postgres';

type Repo = typeof import('../../lib/db/launcher-session-repo');
let repo: Repo;

beforeAll(async () => {
  await freshStore();
  repo = await import('../../lib/db/launcher-session-repo');
});

const key = (contextId: string, owner = 'anonymous', agent = 'coder') => ({ agent, owner, contextId });

describe(`launcher session store (${testStore()})`, () => {
  it('keys by agent, owner and context', async () => {
    const store = repo.launcherSessionStore(10);
    await store.set(key('c1', 'alice'), { sessionId: 's-alice' });
    await store.set(key('c1', 'bob'), { sessionId: 's-bob' });
    await store.set(key('c1', 'alice', 'other'), {});
    expect(await store.get(key('c1', 'alice'))).toEqual({ sessionId: 's-alice' });
    expect(await store.get(key('c1', 'bob'))).toEqual({ sessionId: 's-bob' });
    expect(await store.get(key('c1', 'alice', 'other'))).toEqual({});
    expect(await store.get(key('c2', 'alice'))).toBeUndefined();
  });

  it('drops the least recently used beyond its capacity, per agent', async () => {
    const store = repo.launcherSessionStore(2);
    await store.set(key('a', 'o', 'lru'), { sessionId: 'sa' });
    await store.set(key('b', 'o', 'lru'), { sessionId: 'sb' });
    await store.get(key('a', 'o', 'lru')); // a is now the most recently used
    await store.set(key('c', 'o', 'lru'), { sessionId: 'sc' });
    expect(await store.get(key('b', 'o', 'lru'))).toBeUndefined();
    expect(await store.get(key('a', 'o', 'lru'))).toEqual({ sessionId: 'sa' });
    expect(await store.get(key('c', 'o', 'lru'))).toEqual({ sessionId: 'sc' });
    expect(await repo.launcherSessionStore(10).get(key('c1', 'alice'))).toEqual({ sessionId: 's-alice' }); // other agents untouched
  });
});
