// GET /api/tasks — newest first, keyset-paged: ?state&direction&agent&range&q&cursor&until&after&limit
// → {tasks: TaskSummary[], nextCursor, asOf}. Viewer role.
import { requireRole } from '@/lib/auth/guard';
import { apiError } from '@/lib/api/responses';
import { parseQuery } from '@/lib/dashboard/http';
import { BadCursorError, listTaskPage } from '@/lib/dashboard/task-list';
import { TaskListQuerySchema } from '@/lib/dashboard/wire';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const auth = requireRole(req, 'viewer');
  if ('response' in auth) return auth.response;
  const query = parseQuery(req, TaskListQuerySchema);
  if ('response' in query) return query.response;
  try {
    return Response.json(await listTaskPage(query.data));
  } catch (err) {
    if (err instanceof BadCursorError) return apiError(400, 'invalid_request', err.message, 'cursor');
    throw err;
  }
}
