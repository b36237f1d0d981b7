// POST /api/peers/:name/test — fetch the peer's card now: reachability, latency, protocol
// version, endpoint, skills and timing warnings (operator: it makes an outbound call).
import { apiRoute } from '@/lib/api/route';
import { testPeer } from '@/lib/peers/connection-test';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = apiRoute<{ name: string }>({ role: 'operator' }, async ({ params }) => Response.json(await testPeer(params.name)));
