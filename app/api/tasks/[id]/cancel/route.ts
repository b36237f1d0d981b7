// POST /api/tasks/:id/cancel — cancel a running task (inbound: terminal claim; outbound: at the
// peer). → 200 {task: TaskSummary} | 404 | 409 not_cancelable. Operator role, same origin.
import { apiRoute } from '@/lib/api/route';
import { apiError } from '@/lib/api/responses';
import { cancelFromDashboard } from '@/lib/dashboard/cancel';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = apiRoute<{ id: string }>({ role: 'operator' }, async ({ params, caller }) => {
  const result = await cancelFromDashboard(params.id, caller!.name);
  if (!result.ok) return apiError(result.status, result.code, result.message);
  return Response.json({ task: result.task });
});
