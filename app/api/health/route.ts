// GET /api/health — liveness, used by the test harness, operators' probes and load balancers.
// Always 200 while the process serves, with the store in use. On PostgreSQL, this instance's name,
// leases and notification listener (lib/db/postgres/cluster-member.ts) are shown only to a viewer or operator
// (and in open mode): an unauthenticated probe learns nothing about the cluster.
import { apiRoute } from '@/lib/api/route';
import { identify } from '@/lib/auth/guard';
import { roleAllows } from '@/lib/auth/roles';
import { store } from '@/lib/db/store';

export const dynamic = 'force-dynamic';

export const GET = apiRoute({ role: 'public' }, async ({ req }) => {
  const caller = identify(req);
  // A probe that may not see the details gets none computed: no await, no query, whatever the
  // store's load (a load balancer's probe must answer while thousands of sends are in flight).
  if (!caller || !roleAllows(caller.role, 'viewer')) return Response.json({ ok: true, store: store().kind });
  return Response.json({ ok: true, ...(await store().membership.health()) });
});
