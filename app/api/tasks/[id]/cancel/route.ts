// POST /api/tasks/:id/cancel — cancel a running task (inbound: terminal claim; outbound: at the
// peer); the reason names the door (X-Switchboard-Client: dashboard | cli, else the API), and
// ?parent=<taskId> the parent it was cancelled with (400 if it is not the task's parent). → 200 {task: TaskSummary} | 404 | 409 not_cancelable. Operator role, same origin.
import { apiRoute } from '@/lib/api/route';
import { apiError } from '@/lib/api/responses';
import { cancelAsOperator } from '@/lib/dashboard/cancel';
import { operatorDoor } from '@/lib/api/client-label';
import { requestActor } from '@/lib/api/audit-actor';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = apiRoute<{ id: string }>({ role: 'operator' }, async ({ req, params, caller }) => {
  const parent = new URL(req.url).searchParams.get('parent');
  if (parent !== null && !/^[\w.:-]{1,128}$/.test(parent)) return apiError(400, 'invalid_request', 'parent: expected a task id', 'parent');
  const origin = { door: operatorDoor(req, caller!), ...(parent ? { parentTaskId: parent } : {}) };
  return Response.json({ task: await cancelAsOperator(params.id, requestActor(req, caller!), origin) });
});
