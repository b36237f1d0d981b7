// GET /api/tasks — newest first, keyset-paged: ?state&direction&agent&range&q&cursor&until&after&limit
// → {tasks: TaskSummary[], nextCursor, asOf}. Viewer role.
import { apiRoute } from '@/lib/api/route';
import { apiError } from '@/lib/api/responses';
import { parseQuery } from '@/lib/dashboard/http';
import { BadCursorError, listTaskPage } from '@/lib/dashboard/task-list';
import { TaskListQuerySchema } from '@/lib/dashboard/wire';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = apiRoute({ role: 'viewer' }, async ({ req }) => {
  const query = parseQuery(req, TaskListQuerySchema);
  if ('response' in query) return query.response;
  try {
    return Response.json(await listTaskPage(query.data));
  } catch (err) {
    if (err instanceof BadCursorError) return apiError(400, 'invalid_request', err.message, 'cursor');
    throw err;
  }
});
