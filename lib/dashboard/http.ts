/**
 * The Last-Event-ID / ?after= resume point the dashboard's stream routes share. (The query
 * string is validated by apiRoute's `query` option, lib/api/route.ts.)
 */

/**
 * Where a per-task stream resumes. EventSource's own reconnect sends Last-Event-ID (the latest
 * seq it saw) while keeping the original URL, so the header wins over a stale ?after=.
 */
export function resumeAfter(req: Request): number | null | 'invalid' {
  const header = req.headers.get('last-event-id')?.trim();
  const query = new URL(req.url).searchParams.get('after')?.trim();
  const value = header || query;
  if (!value) return null;
  return /^\d{1,12}$/.test(value) ? Number(value) : 'invalid';
}
