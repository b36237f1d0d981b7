// GET /api/health — liveness, used by the test harness and operators' probes.
export const dynamic = 'force-dynamic';

export function GET(): Response {
  return Response.json({ ok: true });
}
