// POST /api/peers/:name/test — fetch the peer's card now: reachability, latency, protocol
// version, endpoint, skills and timing warnings (operator: it makes an outbound call).
import { requireRole } from '@/lib/auth/guard';
import { clientErrorResponse, testPeer } from '@/lib/client';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(req: Request, ctx: { params: Promise<{ name: string }> }): Promise<Response> {
  const auth = requireRole(req, 'operator');
  if ('response' in auth) return auth.response;
  try {
    return Response.json(await testPeer((await ctx.params).name));
  } catch (err) {
    return clientErrorResponse(err);
  }
}
