// GET /api/tasks/:id/notifications — the task's notification deliveries (rule, events, target
// origin, state, attempts with their errors): {deliveries: [...]}. Viewer role.
import { taskReadRoute } from '@/lib/api/task-read-route';
import { taskDeliveries } from '@/lib/dashboard/notification-log';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = taskReadRoute(taskDeliveries);
