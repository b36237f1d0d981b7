// POST /api/dispatch — send a task to a peer: { peer | url, text, mode, timeoutSeconds?,
// contextId?, taskId?, protocolVersion?, metadata?, parentTaskId? }. Answers 202 {taskId} at
// once; the work goes on in the background whether or not this caller stays (docs/dispatch.md).
// Operator role, or a launched agent's delegation token (the task becomes its task's child).
import { apiRoute } from '@/lib/api/route';
import { dispatchTask, DispatchRequestSchema } from '@/lib/engine';
import { delegatedRequest, dispatchTokenOf } from '@/lib/api/delegated-dispatch';
import { requestActor } from '@/lib/api/audit-actor';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const hasDelegationToken = (req: Request) => dispatchTokenOf(req) !== null;

export const POST = apiRoute({ role: 'operator', body: DispatchRequestSchema, otherCredential: hasDelegationToken }, async ({ req, caller, body }) => {
  const token = dispatchTokenOf(req);
  const allowed = token ? await delegatedRequest(token, body) : { request: body };
  if ('response' in allowed) return allowed.response;
  // A launched agent's delegated dispatch is its task's work, not an operator action (no actor).
  const actor = caller ? requestActor(req, caller) : undefined;
  return Response.json(await dispatchTask(allowed.request, { actor }), { status: 202 });
});
