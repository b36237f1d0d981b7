/**
 * REST error shape for /api routes: { error: { code, message, field? } }. JSON-RPC routes use
 * lib/protocol/errors instead.
 */
import { z } from 'zod';

export function apiError(status: number, code: string, message: string, field?: string): Response {
  return Response.json({ error: { code, message, ...(field ? { field } : {}) } }, { status });
}

/** Parses a JSON body against a schema; a 400 names the first bad field and what was expected. */
export async function parseJsonBody<T>(req: Request, schema: z.ZodType<T>): Promise<{ data: T } | { response: Response }> {
  let body: unknown;
  try {
    body = await req.json();
  } catch {
    return { response: apiError(400, 'invalid_json', 'request body must be a JSON object') };
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return { data: parsed.data };
  const issue = parsed.error.issues[0];
  const field = issue.path.join('.') || undefined;
  return { response: apiError(400, 'invalid_request', field ? `${field}: ${issue.message}` : issue.message, field) };
}
