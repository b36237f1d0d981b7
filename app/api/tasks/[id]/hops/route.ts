// GET /api/tasks/:id/hops — {hops: [{taskId, remoteTaskId, state, children, error}]}: the remote
// hops of the delegation tree, read at the peers (lib/dashboard/task-hops.ts). Viewer role.
import { apiRoute } from '@/lib/api/route';
import { apiError } from '@/lib/api/responses';
import { findTask } from '@/lib/db/task-repo';
import { loadTaskHops } from '@/lib/dashboard/task-hops';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = apiRoute<{ id: string }>({ role: 'viewer' }, async ({ params }) => {
  if (!(await findTask(params.id))) return apiError(404, 'not_found', `no task ${params.id}`);
  return Response.json(await loadTaskHops(params.id), { headers: { 'Cache-Control': 'no-store' } });
});
