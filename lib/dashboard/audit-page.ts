/**
 * GET /api/audit's page (decision 232): operator actions newest first, keyset-paged with the
 * task list's cursor encoding ((time, id) as opaque text), for the dashboard's audit page and
 * `switchboard audit`.
 */
import { z } from 'zod';
import { listAuditEntries } from '../db/audit-repo';
import { decodeListCursor, encodeListCursor } from '../db/list-cursor';
import type { AuditPage } from './audit-wire';

export const AUDIT_LIMIT_DEFAULT = 50;
export const AUDIT_LIMIT_MAX = 200;

export const AuditQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(AUDIT_LIMIT_MAX).default(AUDIT_LIMIT_DEFAULT),
  cursor: z.string().max(400, 'cursor: at most 400 characters').optional(),
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

export class BadAuditCursorError extends Error {}

export async function listAuditPage(query: AuditQuery): Promise<AuditPage> {
  const cursor = query.cursor === undefined ? undefined : decodeListCursor(query.cursor);
  if (cursor === null) throw new BadAuditCursorError('cursor: not a cursor this server issued');
  // One more than asked tells whether an older page exists.
  const rows = await listAuditEntries(query.limit + 1, cursor && { at: cursor.createdAt, id: cursor.id });
  const entries = rows.slice(0, query.limit);
  const last = entries[entries.length - 1];
  return { entries, nextCursor: rows.length > query.limit && last ? encodeListCursor({ createdAt: last.at, id: last.id }) : null };
}
