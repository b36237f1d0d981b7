// GET /api/health — liveness, used by the test harness, operators' probes and load balancers.
// Always 200 while the process serves, with the store in use. On PostgreSQL, this instance's name,
// leases and notification listener (lib/db/postgres/cluster-member.ts) are shown only to a viewer or operator
// (and in open mode): an unauthenticated probe learns nothing about the cluster.
// `next start`'s server answers it before Next routes it (lib/server/health-first.ts, decision
// 378); this route answers what that leaves to Next (a throttled token, a store that failed).
import { apiRoute } from '@/lib/api/route';
import { healthBody } from '@/lib/server/health-first';

export const dynamic = 'force-dynamic';

export const GET = apiRoute({ role: 'public' }, async ({ req }) => Response.json(await healthBody(req.headers)));
