/**
 * The operator audit log (table AuditEntry, migration 0018, decision 232): rows are added by
 * lib/audit, read newest first a page at a time, and pruned after SWITCHBOARD_AUDIT_RETENTION by
 * the one pruner (pruner.ts). Both providers through Prisma, except the bounded prune.
 */
import { randomUUID } from 'node:crypto';
import { db } from './client';
import { deleteInBatches, PRUNE_BATCH, type PruneStatement } from './prune-batches';
import { sqliteTime } from './task-store';

export type AuditOutcome = 'ok' | 'refused' | 'failed';

export interface NewAuditEntry {
  action: string;
  actor: string;
  via: string;
  door: string;
  address: string | null;
  target: string | null;
  detail: Record<string, string> | null;
  outcome: AuditOutcome;
  error: string | null;
}

export interface AuditRecord extends NewAuditEntry {
  id: string;
  at: string;
}

/** Keyset position of a page: the last row's time and id (newest first). */
export interface AuditCursor {
  at: string;
  id: string;
}

type Row = Omit<AuditRecord, 'at' | 'detail' | 'outcome'> & { at: Date; detail: string | null; outcome: string };

const toRecord = (r: Row): AuditRecord => ({
  ...r,
  at: r.at.toISOString(),
  outcome: r.outcome as AuditOutcome,
  detail: r.detail ? (JSON.parse(r.detail) as Record<string, string>) : null,
});

export async function insertAuditEntry(entry: NewAuditEntry, at = new Date()): Promise<void> {
  await db().auditEntry.create({ data: { ...entry, id: randomUUID(), at, detail: entry.detail ? JSON.stringify(entry.detail) : null } });
}

/** A page of entries, newest first, older than `before` when given. */
export async function listAuditEntries(limit: number, before?: AuditCursor): Promise<AuditRecord[]> {
  const at = before ? new Date(before.at) : undefined;
  const rows = await db().auditEntry.findMany({
    where: before && at ? { OR: [{ at: { lt: at } }, { at, id: { lt: before.id } }] } : {},
    orderBy: [{ at: 'desc' }, { id: 'desc' }],
    take: limit,
  });
  return rows.map(toRecord);
}

const PRUNE: PruneStatement = {
  sqlite: 'DELETE FROM "AuditEntry" WHERE rowid IN (SELECT rowid FROM "AuditEntry" WHERE "at" < ? LIMIT ?)',
  pg: 'DELETE FROM "AuditEntry" WHERE ctid = ANY(ARRAY(SELECT ctid FROM "AuditEntry" WHERE "at" < $1 LIMIT $2 FOR UPDATE SKIP LOCKED))',
};

/** Deletes entries older than `now - retentionMs`, in bounded batches; the number deleted. */
export async function pruneAuditEntries(retentionMs: number, now = new Date(), batch = PRUNE_BATCH): Promise<number> {
  return deleteInBatches(PRUNE, [sqliteTime(new Date(now.getTime() - retentionMs))], batch);
}
