// POST /api/tasks/:id/cancel — cancel a running task (inbound: terminal claim; outbound: at the
// peer); the reason names the door (X-Switchboard-Client: dashboard | cli, else the API). → 200 {task: TaskSummary} | 404 | 409 not_cancelable. Operator role, same origin.
import { apiRoute } from '@/lib/api/route';
import { apiError } from '@/lib/api/responses';
import { cancelFromDashboard } from '@/lib/dashboard/cancel';
import { operatorDoor } from '@/lib/api/client-label';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = apiRoute<{ id: string }>({ role: 'operator' }, async ({ req, params, caller }) => {
  const result = await cancelFromDashboard(params.id, caller!.name, operatorDoor(req, caller!));
  if (!result.ok) return apiError(result.status, result.code, result.message);
  return Response.json({ task: result.task });
});
