// GET /api/tasks/counts — tasks per display state for the list's filter chips, honouring every
// filter but the state one: ?direction&agent&range&q → {counts: {working: 3, ...}, total}. Viewer role.
import { apiRoute } from '@/lib/api/route';
import { taskCounts } from '@/lib/dashboard/task-list';
import { TaskFilterSchema } from '@/lib/dashboard/wire';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = apiRoute({ role: 'viewer', query: TaskFilterSchema }, async ({ query }) => Response.json(await taskCounts(query)));
