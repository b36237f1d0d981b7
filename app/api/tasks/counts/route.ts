// GET /api/tasks/counts — tasks per display state for the list's filter chips, honouring every
// filter but the state one: ?direction&agent&range&q → {counts: {working: 3, ...}, total}. Viewer role.
import { requireRole } from '@/lib/auth/guard';
import { parseQuery } from '@/lib/dashboard/http';
import { taskCounts } from '@/lib/dashboard/task-list';
import { TaskFilterSchema } from '@/lib/dashboard/wire';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const auth = requireRole(req, 'viewer');
  if ('response' in auth) return auth.response;
  const query = parseQuery(req, TaskFilterSchema);
  if ('response' in query) return query.response;
  return Response.json(await taskCounts(query.data));
}
