// GET /api/peers — list peers (viewer). POST /api/peers — create a peer (operator).
// Secrets are accepted here and never returned: auth comes back as {type, configured, header?}.
import { apiRoute } from '@/lib/api/route';
import { clientErrorResponse, createPeer, listPeers, PeerCreateSchema } from '@/lib/client';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = apiRoute({ role: 'viewer' }, async () => {
  try {
    return Response.json({ peers: await listPeers() });
  } catch (err) {
    return clientErrorResponse(err);
  }
});

export const POST = apiRoute({ role: 'operator', body: PeerCreateSchema }, async ({ body }) => {
  try {
    return Response.json({ peer: await createPeer(body) }, { status: 201 });
  } catch (err) {
    return clientErrorResponse(err);
  }
});
