// GET /api/tasks/:id/events — SSE with resubscribe semantics: `snapshot` (TaskDetail) first, then
// `task-event` frames (id: seq), then `end` at a terminal state. Last-Event-ID or ?after=<seq>
// replays the missed events from the database instead of sending a snapshot. Viewer role.
import { apiRoute } from '@/lib/api/route';
import { apiError } from '@/lib/api/responses';
import { resumeAfter } from '@/lib/dashboard/http';
import { taskStreamResponse } from '@/lib/dashboard/task-stream-response';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = apiRoute<{ id: string }>({ role: 'viewer' }, ({ req, params }) => {
  const after = resumeAfter(req);
  if (after === 'invalid') return apiError(400, 'invalid_request', 'after: expected an event seq', 'after');
  return taskStreamResponse(req, params.id, after);
});
