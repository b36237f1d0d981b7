// GET /api/tasks/:id/notifications — the task's notification deliveries (rule, events, target
// origin, state, attempts with their errors): {deliveries: [...]}. Viewer role.
import { requireRole } from '@/lib/auth/guard';
import { apiError } from '@/lib/api/responses';
import { taskDeliveries } from '@/lib/dashboard/notification-log';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  const auth = requireRole(req, 'viewer');
  if ('response' in auth) return auth.response;
  const { id } = await ctx.params;
  const list = await taskDeliveries(id);
  if (!list) return apiError(404, 'not_found', `no task ${id}`);
  return Response.json(list, { headers: { 'Cache-Control': 'no-store' } });
}
