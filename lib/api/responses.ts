/**
 * REST error shape for /api routes: { error: { code, message, field? } }. JSON-RPC routes use
 * lib/protocol/errors instead. Bodies are read through lib/api/route.ts (bounded, validated).
 */
export function apiError(status: number, code: string, message: string, field?: string): Response {
  return Response.json({ error: { code, message, ...(field ? { field } : {}) } }, { status });
}

/** A 400 naming the first bad field and what was expected. */
export function invalidRequest(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Response {
  const issue = issues[0];
  const field = issue.path.map(String).join('.') || undefined;
  return apiError(400, 'invalid_request', field ? `${field}: ${issue.message}` : issue.message, field);
}
