/**
 * GET /api/tasks/export: the history as JSON Lines, so it can be kept elsewhere before the
 * retention prunes it (`switchboard tasks export`). A page is the list's own query (same
 * filters, keyset order and scope: the operator's, every task), read before anything is sent, so
 * a bad cursor is a 400 and the next page's cursor can go in a header. Then one task is read and
 * written at a time, as the client takes them: memory holds one task, however long the page.
 * A task pruned between the page and its turn is left out; a read that fails cuts the response
 * short (no final chunk), which the CLI reports instead of keeping a partial file.
 */
import { listTaskPage } from './task-list';
import { loadTaskDetail } from './task-detail';
import type { TaskExportQuery } from './wire';

export interface ExportPage {
  lines: ReadableStream<Uint8Array>;
  nextCursor: string | null;
}

function taskLines(ids: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (next < ids.length) {
          const detail = await loadTaskDetail(ids[next++], { compact: false });
          if (detail) return controller.enqueue(encoder.encode(`${JSON.stringify(detail)}\n`));
        }
        controller.close();
      },
    },
    { highWaterMark: 1 },
  );
}

export async function exportTaskPage(q: TaskExportQuery): Promise<ExportPage> {
  const page = await listTaskPage({ state: q.state, since: q.since, cursor: q.cursor, limit: q.limit });
  return { lines: taskLines(page.tasks.map((t) => t.id)), nextCursor: page.nextCursor };
}
