// GET /api/debug/queries — database work counted since start: {prisma, reads, writes, commits}.
// Exists only when SWITCHBOARD_QUERY_LOG=1 (404 otherwise); lib/db/query-counter.ts. Viewer role.
import { requireRole } from '@/lib/auth/guard';
import { apiError } from '@/lib/api/responses';
import { queryCounts, queryLogEnabled } from '@/lib/db/query-counter';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export function GET(req: Request): Response {
  if (!queryLogEnabled()) return apiError(404, 'not_found', 'set SWITCHBOARD_QUERY_LOG=1 to count queries');
  const auth = requireRole(req, 'viewer');
  if ('response' in auth) return auth.response;
  return Response.json(queryCounts(), { headers: { 'Cache-Control': 'no-store' } });
}
