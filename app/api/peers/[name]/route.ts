// GET /api/peers/:name (viewer); PATCH /api/peers/:name, DELETE /api/peers/:name (operator).
// Peers from the config file and the built-in `self` are read-only (409).
import { requireRole } from '@/lib/auth/guard';
import { parseJsonBody } from '@/lib/api/responses';
import { clientErrorResponse, deletePeer, getPeer, PeerPatchSchema, updatePeer } from '@/lib/client';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ name: string }> };

export async function GET(req: Request, ctx: Ctx): Promise<Response> {
  const auth = requireRole(req, 'viewer');
  if ('response' in auth) return auth.response;
  try {
    return Response.json({ peer: await getPeer((await ctx.params).name) });
  } catch (err) {
    return clientErrorResponse(err);
  }
}

export async function PATCH(req: Request, ctx: Ctx): Promise<Response> {
  const auth = requireRole(req, 'operator');
  if ('response' in auth) return auth.response;
  const body = await parseJsonBody(req, PeerPatchSchema);
  if ('response' in body) return body.response;
  try {
    return Response.json({ peer: await updatePeer((await ctx.params).name, body.data) });
  } catch (err) {
    return clientErrorResponse(err);
  }
}

export async function DELETE(req: Request, ctx: Ctx): Promise<Response> {
  const auth = requireRole(req, 'operator');
  if ('response' in auth) return auth.response;
  try {
    await deletePeer((await ctx.params).name);
    return new Response(null, { status: 204 });
  } catch (err) {
    return clientErrorResponse(err);
  }
}
