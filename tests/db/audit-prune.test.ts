/**
 * The audit log is bounded. Entries older than the retention are deleted by the
 * pruner's audit step in bounded batches, on both providers; newer ones stay, and the page reads
 * newest first across the cursor.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from '../support/in-process';

type Repo = typeof import('../../lib/db/audit-repo');
let repo: Repo;

const HOUR = 3_600_000;
const now = new Date('2026-06-01T12:00:00.000Z');
const entry = (target: string) => ({ action: 'cancel', actor: 'operator-token', via: 'token', door: 'api', address: '127.0.0.1', target, detail: null, outcome: 'ok' as const, error: null });

beforeAll(async () => {
  await freshStore();
  const client = await import('../../lib/db/client');
  await client.storeReady();
  repo = await import('../../lib/db/audit-repo');
  for (const [target, hoursAgo] of [['old-1', 50], ['old-2', 49], ['old-3', 48.5], ['recent-1', 2], ['recent-2', 1]] as const) {
    await repo.insertAuditEntry(entry(target), new Date(now.getTime() - hoursAgo * HOUR));
  }
});

describe('audit retention', () => {
  it('deletes the entries older than the retention, two per statement here, and keeps the rest', async () => {
    expect(await repo.pruneAuditEntries(24 * HOUR, now, 2)).toBe(3);
    expect((await repo.listAuditEntries(10)).map((e) => e.target)).toEqual(['recent-2', 'recent-1']);
    expect(await repo.pruneAuditEntries(24 * HOUR, now, 2)).toBe(0);
  });

  it('pages newest first from a cursor', async () => {
    const [first] = await repo.listAuditEntries(1);
    expect(first.target).toBe('recent-2');
    expect((await repo.listAuditEntries(10, { at: first.at, id: first.id })).map((e) => e.target)).toEqual(['recent-1']);
  });
});
