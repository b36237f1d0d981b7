// GET /api/peers/:name (viewer); PATCH /api/peers/:name, DELETE /api/peers/:name (operator).
// Peers from the config file and the built-in `self` are read-only (409).
import { apiRoute } from '@/lib/api/route';
import { deletePeer, getPeer, updatePeer } from '@/lib/peers/registry';
import { PeerPatchSchema } from '@/lib/peers/schemas';
import { peerAnswer } from '@/lib/peers/timeouts';
import { requestActor } from '@/lib/api/audit-actor';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Params = { name: string };

export const GET = apiRoute<Params>({ role: 'viewer' }, async ({ params }) => Response.json({ peer: await getPeer(params.name) }));

export const PATCH = apiRoute<Params, typeof PeerPatchSchema._output>({ role: 'operator', body: PeerPatchSchema }, async ({ req, caller, params, body }) =>
  Response.json(peerAnswer(await updatePeer(params.name, body, requestActor(req, caller!)))),
);

export const DELETE = apiRoute<Params>({ role: 'operator' }, async ({ req, caller, params }) => {
  await deletePeer(params.name, requestActor(req, caller!));
  return new Response(null, { status: 204 });
});
