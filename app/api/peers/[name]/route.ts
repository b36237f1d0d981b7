// GET /api/peers/:name (viewer); PATCH /api/peers/:name, DELETE /api/peers/:name (operator).
// Peers from the config file and the built-in `self` are read-only (409).
import { apiRoute } from '@/lib/api/route';
import { clientErrorResponse, deletePeer, getPeer, PeerPatchSchema, updatePeer } from '@/lib/client';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Params = { name: string };

export const GET = apiRoute<Params>({ role: 'viewer' }, async ({ params }) => {
  try {
    return Response.json({ peer: await getPeer(params.name) });
  } catch (err) {
    return clientErrorResponse(err);
  }
});

export const PATCH = apiRoute<Params, typeof PeerPatchSchema._output>({ role: 'operator', body: PeerPatchSchema }, async ({ params, body }) => {
  try {
    return Response.json({ peer: await updatePeer(params.name, body) });
  } catch (err) {
    return clientErrorResponse(err);
  }
});

export const DELETE = apiRoute<Params>({ role: 'operator' }, async ({ params }) => {
  try {
    await deletePeer(params.name);
    return new Response(null, { status: 204 });
  } catch (err) {
    return clientErrorResponse(err);
  }
});
