// GET /api/tasks — newest first, keyset-paged: ?state&direction&agent&range&q&cursor&until&after&limit
// → {tasks: TaskSummary[], nextCursor, asOf}. Viewer role.
import { apiRoute } from '@/lib/api/route';
import { parseQuery } from '@/lib/dashboard/http';
import { listTaskPage } from '@/lib/dashboard/task-list';
import { TaskListQuerySchema } from '@/lib/dashboard/wire';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = apiRoute({ role: 'viewer' }, async ({ req }) => {
  const query = parseQuery(req, TaskListQuerySchema);
  if ('response' in query) return query.response;
  return Response.json(await listTaskPage(query.data));
});
