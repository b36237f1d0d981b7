// GET /api/tasks/export — one page of tasks as JSON Lines (a task with all its events a line),
// newest first: ?since&state&cursor&limit; the next page's cursor in the Switchboard-Next-Cursor
// header (absent on the last page). Viewer role.
import { apiRoute } from '@/lib/api/route';
import { exportTaskPage } from '@/lib/dashboard/task-export';
import { EXPORT_NEXT_CURSOR_HEADER, TaskExportQuerySchema } from '@/lib/dashboard/wire';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = apiRoute({ role: 'viewer', query: TaskExportQuerySchema }, async ({ query }) => {
  const page = await exportTaskPage(query);
  const headers: Record<string, string> = { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store' };
  if (page.nextCursor) headers[EXPORT_NEXT_CURSOR_HEADER] = page.nextCursor;
  return new Response(page.lines, { headers });
});
