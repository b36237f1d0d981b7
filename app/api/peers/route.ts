// GET /api/peers — list peers (viewer). POST /api/peers — create a peer (operator).
// Secrets are accepted here and never returned: auth comes back as {type, configured, header?}.
import { requireRole } from '@/lib/auth/guard';
import { parseJsonBody } from '@/lib/api/responses';
import { clientErrorResponse, createPeer, listPeers, PeerCreateSchema } from '@/lib/client';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const auth = requireRole(req, 'viewer');
  if ('response' in auth) return auth.response;
  try {
    return Response.json({ peers: await listPeers() });
  } catch (err) {
    return clientErrorResponse(err);
  }
}

export async function POST(req: Request): Promise<Response> {
  const auth = requireRole(req, 'operator');
  if ('response' in auth) return auth.response;
  const body = await parseJsonBody(req, PeerCreateSchema);
  if ('response' in body) return body.response;
  try {
    return Response.json({ peer: await createPeer(body.data) }, { status: 201 });
  } catch (err) {
    return clientErrorResponse(err);
  }
}
