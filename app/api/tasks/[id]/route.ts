// GET /api/tasks/:id — {task: summary + requestText/remoteTaskId/metadata, snapshot: A2A Task,
// events: every event up to task.lastSeq (artifact chunks compacted)}. Viewer role.
import { apiRoute } from '@/lib/api/route';
import { apiError } from '@/lib/api/responses';
import { loadTaskDetail } from '@/lib/dashboard/task-detail';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = apiRoute<{ id: string }>({ role: 'viewer' }, async ({ params }) => {
  const detail = await loadTaskDetail(params.id);
  if (!detail) return apiError(404, 'not_found', `no task ${params.id}`);
  return Response.json(detail, { headers: { 'Cache-Control': 'no-store' } });
});
