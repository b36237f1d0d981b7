// GET /api/audit — operator actions (dispatch, reply, cancel, peer and API key changes), newest
// first, keyset-paged: ?limit (1–200, default 50) &cursor → {entries, nextCursor}. Operator role
// only: the log names who did what from where (docs/observability.md, decision 232).
import { apiRoute } from '@/lib/api/route';
import { apiError } from '@/lib/api/responses';
import { AuditQuerySchema, BadAuditCursorError, listAuditPage } from '@/lib/dashboard/audit-page';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = apiRoute({ role: 'operator', query: AuditQuerySchema }, async ({ query }) => {
  try {
    return Response.json(await listAuditPage(query));
  } catch (err) {
    if (err instanceof BadAuditCursorError) return apiError(400, 'invalid_request', err.message, 'cursor');
    throw err;
  }
});
