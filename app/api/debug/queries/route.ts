// GET /api/debug/queries — database work counted since start: {prisma, reads, writes, commits, sqlite, checkpoints}.
// Exists only when SWITCHBOARD_QUERY_LOG=1 (404 otherwise); lib/db/query-counter.ts. Viewer role.
import { apiRoute } from '@/lib/api/route';
import { apiError } from '@/lib/api/responses';
import { queryCounts, queryLogEnabled } from '@/lib/db/query-counter';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const counts = apiRoute({ role: 'viewer' }, () => Response.json(queryCounts(), { headers: { 'Cache-Control': 'no-store' } }));

export function GET(req: Request, ctx: { params: Promise<Record<string, never>> }): Promise<Response> | Response {
  if (!queryLogEnabled()) return apiError(404, 'not_found', 'set SWITCHBOARD_QUERY_LOG=1 to count queries');
  return counts(req, ctx);
}
