/**
 * The SQLite group commit stops taking writes once its transaction has run FLUSH_BUDGET_MS
 * (lib/db/sqlite/write-queue.ts): a burst of thousands of task inserts commits in several short
 * transactions instead of one that holds the event loop, every write still resolves only after
 * the transaction holding it committed, and in the order they were queued. A real SQLite file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLUSH_BUDGET_MS, WriteQueue } from '../../lib/db/sqlite/write-queue';

let dir: string;
let db: Database.Database;
let commits: { writes: number; ms: number }[];
let inTransaction = 0;

/** A write that takes `ms` of CPU (a task insert with its events is ~0.1 ms; these are longer so that the budget is reached by few). */
function slowWrite(id: number, ms: number): () => number {
  return () => {
    const until = performance.now() + ms;
    while (performance.now() < until);
    db.prepare('INSERT INTO "rows" ("id") VALUES (?)').run(id);
    inTransaction++;
    return id;
  };
}

function queue(failCommitOnce = false): WriteQueue {
  let fail = failCommitOnce;
  const tx = db.transaction((fn: () => void) => {
    fn();
    if (fail) {
      fail = false;
      throw new Error('commit refused');
    }
  });
  return new WriteQueue((fn) => {
    const started = performance.now();
    inTransaction = 0;
    try {
      tx(fn);
    } finally {
      commits.push({ writes: inTransaction, ms: performance.now() - started });
    }
  });
}

const committedIds = () => (db.prepare('SELECT "id" FROM "rows" ORDER BY "rowid"').all() as { id: number }[]).map((r) => r.id);

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'write-budget-'));
  db = new Database(path.join(dir, 'wq.db'));
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE "rows" ("id" INTEGER PRIMARY KEY)');
});

afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('SQLite group commit under a burst', () => {
  it(`splits a burst into transactions of about ${FLUSH_BUDGET_MS} ms, each write resolving after its own commit, in order`, async () => {
    commits = [];
    db.exec('DELETE FROM "rows"');
    const q = queue();
    const ids = Array.from({ length: 40 }, (_, i) => i + 1);
    const seenAtResolve: number[] = [];
    const results = await Promise.all(
      ids.map((id) =>
        q.enqueue(slowWrite(id, 1)).then((value) => {
          // Resolved only once committed: another connection sees the row.
          const reader = new Database(path.join(dir, 'wq.db'), { readonly: true });
          seenAtResolve.push((reader.prepare('SELECT COUNT(*) AS n FROM "rows" WHERE "id" = ?').get(value) as { n: number }).n);
          reader.close();
          return value;
        }),
      ),
    );
    expect(results).toEqual(ids);
    expect(seenAtResolve.every((n) => n === 1)).toBe(true);
    expect(committedIds()).toEqual(ids);
    // 40 ms of writes cannot fit one budget: several commits, none holding more than the budget's worth.
    expect(commits.length).toBeGreaterThanOrEqual(3);
    expect(commits.reduce((n, c) => n + c.writes, 0)).toBe(40);
    for (const c of commits) expect(c.writes).toBeLessThanOrEqual(FLUSH_BUDGET_MS + 1);
  });

  it('runs at least one write per transaction, however long it takes', async () => {
    commits = [];
    const q = queue();
    const long = await Promise.all([q.enqueue(slowWrite(101, FLUSH_BUDGET_MS * 2)), q.enqueue(slowWrite(102, FLUSH_BUDGET_MS * 2))]);
    expect(long).toEqual([101, 102]);
    expect(commits.map((c) => c.writes)).toEqual([1, 1]);
  });

  it('a failed commit rejects the writes it held; writes past the budget run in the next transaction and commit', async () => {
    commits = [];
    db.exec('DELETE FROM "rows"');
    const q = queue(true);
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => q.enqueue(slowWrite(200 + i, 1))));
    const rejected = outcomes.filter((o) => o.status === 'rejected').length;
    const fulfilled = outcomes.filter((o) => o.status === 'fulfilled').map((o) => (o as PromiseFulfilledResult<number>).value);
    expect(rejected).toBe(commits[0].writes);
    expect(rejected).toBeGreaterThan(0);
    expect(rejected).toBeLessThan(20);
    expect(committedIds()).toEqual(fulfilled);
    expect(fulfilled).toEqual(Array.from({ length: 20 - rejected }, (_, i) => 200 + rejected + i));
  });
});
