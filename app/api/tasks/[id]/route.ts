// GET /api/tasks/:id — {task: summary + requestText/remoteTaskId/metadata, snapshot: A2A Task,
// events: every event up to task.lastSeq (artifact chunks compacted)}. Viewer role.
import { taskReadRoute } from '@/lib/api/task-read-route';
import { loadTaskDetail } from '@/lib/dashboard/task-detail';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = taskReadRoute(loadTaskDetail);
