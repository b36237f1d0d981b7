// GET /api/tasks/:id/notifications — the task's notification deliveries (rule, events, target
// origin, state, attempts with their errors): {deliveries: [...]}. Viewer role.
import { apiRoute } from '@/lib/api/route';
import { apiError } from '@/lib/api/responses';
import { taskDeliveries } from '@/lib/dashboard/notification-log';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = apiRoute<{ id: string }>({ role: 'viewer' }, async ({ params }) => {
  const list = await taskDeliveries(params.id);
  if (!list) return apiError(404, 'not_found', `no task ${params.id}`);
  return Response.json(list, { headers: { 'Cache-Control': 'no-store' } });
});
