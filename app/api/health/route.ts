// GET /api/health — liveness, used by the test harness and operators' probes.
import { apiRoute } from '@/lib/api/route';

export const dynamic = 'force-dynamic';

export const GET = apiRoute({ role: 'public' }, () => Response.json({ ok: true }));
