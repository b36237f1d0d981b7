/**
 * The GET /api/tasks/:id/… reads (detail, hops, notifications): viewer role, a 404 naming the task
 * when there is none, and never cached, since a task changes while it is open.
 */
import { apiRoute } from './route';
import { apiError } from './responses';

export function taskReadRoute<T>(read: (taskId: string) => Promise<T | null>) {
  return apiRoute<{ id: string }>({ role: 'viewer' }, async ({ params }) => {
    const found = await read(params.id);
    if (!found) return apiError(404, 'not_found', `no task ${params.id}`);
    return Response.json(found, { headers: { 'Cache-Control': 'no-store' } });
  });
}
