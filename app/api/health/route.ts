// GET /api/health — liveness, used by the test harness, operators' probes and load balancers.
// Always 200 while the process serves; the body says which store is in use and, on PostgreSQL,
// this instance's leases and notification listener (lib/engine/cluster.ts).
import { apiRoute } from '@/lib/api/route';
import { storeHealth } from '@/lib/engine/cluster';

export const dynamic = 'force-dynamic';

export const GET = apiRoute({ role: 'public' }, async () => Response.json({ ok: true, ...(await storeHealth()) }));
