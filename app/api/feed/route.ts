// GET /api/feed — SSE of task changes for the live list: `tasks` frames carrying
// {tasks: TaskSummary[]} (coalesced, newest state per task), `: keepalive` every 15 s.
// No resume ids: a client that reconnects refetches its list. Viewer role.
import { requireRole } from '@/lib/auth/guard';
import { feedBroadcaster } from '@/lib/dashboard/feed';
import { sseFromPush } from '@/lib/dashboard/sse';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export function GET(req: Request): Response {
  const auth = requireRole(req, 'viewer');
  if ('response' in auth) return auth.response;
  return sseFromPush((send) => feedBroadcaster().add(send), { signal: req.signal });
}
