// POST /api/tasks/:id/cancel — cancel a running task (inbound: terminal claim; outbound: at the
// peer). → 200 {task: TaskSummary} | 404 | 409 not_cancelable. Operator role, same origin.
import { requireRole } from '@/lib/auth/guard';
import { apiError } from '@/lib/api/responses';
import { cancelFromDashboard } from '@/lib/dashboard/cancel';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  const auth = requireRole(req, 'operator');
  if ('response' in auth) return auth.response;
  const { id } = await ctx.params;
  const result = await cancelFromDashboard(id, auth.caller.name);
  if (!result.ok) return apiError(result.status, result.code, result.message);
  return Response.json({ task: result.task });
}
