// POST /api/dispatch — send a task to a peer: { peer | url, text, mode, timeoutSeconds?,
// contextId?, taskId?, protocolVersion?, metadata?, parentTaskId? }. Answers 202 {taskId} at
// once; the work goes on in the background whether or not this caller stays (docs/dispatch.md).
// Operator role, or a launched agent's delegation token (the task becomes its task's child).
import { requireRole } from '@/lib/auth/guard';
import { parseJsonBody } from '@/lib/api/responses';
import { clientErrorResponse, dispatchTask, DispatchRequestSchema } from '@/lib/client';
import { delegatedRequest, dispatchTokenOf } from '@/lib/client/delegated-dispatch';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  const token = dispatchTokenOf(req);
  if (!token) {
    const auth = requireRole(req, 'operator');
    if ('response' in auth) return auth.response;
  }
  const body = await parseJsonBody(req, DispatchRequestSchema);
  if ('response' in body) return body.response;
  const allowed = token ? await delegatedRequest(token, body.data) : { request: body.data };
  if ('response' in allowed) return allowed.response;
  try {
    return Response.json(await dispatchTask(allowed.request), { status: 202 });
  } catch (err) {
    return clientErrorResponse(err);
  }
}
