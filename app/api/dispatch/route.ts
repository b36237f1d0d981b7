// POST /api/dispatch — send a task to a peer: { peer | url, text, mode, timeoutSeconds?,
// contextId?, taskId?, protocolVersion?, metadata? }. Answers 202 {taskId} at once; the work
// goes on in the background whether or not this caller stays (docs/dispatch.md).
import { apiRoute } from '@/lib/api/route';
import { clientErrorResponse, dispatchTask, DispatchRequestSchema } from '@/lib/client';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = apiRoute({ role: 'operator', body: DispatchRequestSchema }, async ({ body }) => {
  try {
    return Response.json(await dispatchTask(body), { status: 202 });
  } catch (err) {
    return clientErrorResponse(err);
  }
});
