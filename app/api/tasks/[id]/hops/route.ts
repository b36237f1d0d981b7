// GET /api/tasks/:id/hops — {hops: [{taskId, remoteTaskId, state, children, error}]}: the remote
// hops of the delegation tree, read at the peers (lib/dashboard/task-hops.ts). Viewer role.
import { taskReadRoute } from '@/lib/api/task-read-route';
import { findTask } from '@/lib/db/task-repo';
import { loadTaskHops } from '@/lib/dashboard/task-hops';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = taskReadRoute(async (taskId) => ((await findTask(taskId)) ? loadTaskHops(taskId) : null));
