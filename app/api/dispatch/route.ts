// POST /api/dispatch — send a task to a peer: { peer | url, text, mode, timeoutSeconds?,
// contextId?, taskId?, protocolVersion?, metadata? }. Answers 202 {taskId} at once; the work
// goes on in the background whether or not this caller stays (docs/dispatch.md).
import { requireRole } from '@/lib/auth/guard';
import { parseJsonBody } from '@/lib/api/responses';
import { clientErrorResponse, dispatchTask, DispatchRequestSchema } from '@/lib/client';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  const auth = requireRole(req, 'operator');
  if ('response' in auth) return auth.response;
  const body = await parseJsonBody(req, DispatchRequestSchema);
  if ('response' in body) return body.response;
  try {
    return Response.json(await dispatchTask(body.data), { status: 202 });
  } catch (err) {
    return clientErrorResponse(err);
  }
}
