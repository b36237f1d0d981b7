/**
 * Small helpers the dashboard's route handlers share: query-string parsing with field-level
 * 400s (the same shape as lib/api/responses), and the Last-Event-ID / ?after= resume point.
 */
import type { z } from 'zod';
import { invalidRequest } from '../api/responses';

export function parseQuery<T>(req: Request, schema: z.ZodType<T>): { data: T } | { response: Response } {
  const params = new URL(req.url).searchParams;
  const raw: Record<string, string> = {};
  for (const [key, value] of params) if (value.trim() !== '') raw[key] = value;
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { data: parsed.data };
  return { response: invalidRequest(parsed.error.issues) };
}

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
