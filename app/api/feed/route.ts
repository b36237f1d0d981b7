// GET /api/feed — SSE of task changes for the live list: `tasks` frames carrying
// {tasks: TaskSummary[]} (coalesced, newest state per task), `: keepalive` every 2 s (SWITCHBOARD_SSE_KEEPALIVE).
// No resume ids: a client that reconnects refetches its list. Viewer role.
import { apiRoute } from '@/lib/api/route';
import { feedBroadcaster } from '@/lib/dashboard/feed';
import { sseFromPush } from '@/lib/dashboard/sse';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = apiRoute({ role: 'viewer' }, ({ req }) => sseFromPush((send) => feedBroadcaster().add(send), { signal: req.signal }));
