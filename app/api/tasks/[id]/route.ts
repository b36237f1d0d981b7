// GET /api/tasks/:id — {task: summary + requestText/remoteTaskId/metadata, snapshot: A2A Task,
// events: every event up to task.lastSeq (artifact chunks compacted)}. Viewer role.
import { requireRole } from '@/lib/auth/guard';
import { apiError } from '@/lib/api/responses';
import { loadTaskDetail } from '@/lib/dashboard/task-detail';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  const auth = requireRole(req, 'viewer');
  if ('response' in auth) return auth.response;
  const { id } = await ctx.params;
  const detail = await loadTaskDetail(id);
  if (!detail) return apiError(404, 'not_found', `no task ${id}`);
  return Response.json(detail, { headers: { 'Cache-Control': 'no-store' } });
}
