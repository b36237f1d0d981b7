// GET /api/tasks — newest first, keyset-paged: ?state&direction&agent&range&q&cursor&until&after&limit
// → {tasks: TaskSummary[], nextCursor, asOf}. Viewer role.
import { apiRoute } from '@/lib/api/route';
import { listTaskPage } from '@/lib/dashboard/task-list';
import { TaskListQuerySchema } from '@/lib/dashboard/wire';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = apiRoute({ role: 'viewer', query: TaskListQuerySchema }, async ({ query }) => Response.json(await listTaskPage(query)));
