// GET /api/peers — list peers (viewer). POST /api/peers — create a peer (operator).
// Secrets are accepted here and never returned: auth comes back as {type, configured, header?}.
// A timeout below the floor is accepted and warned about: {peer, warnings?}.
import { apiRoute } from '@/lib/api/route';
import { createPeer, listPeers } from '@/lib/peers/registry';
import { PeerCreateSchema } from '@/lib/peers/schemas';
import { peerAnswer } from '@/lib/peers/timeouts';
import { requestActor } from '@/lib/api/audit-actor';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = apiRoute({ role: 'viewer' }, async () => Response.json({ peers: await listPeers() }));

export const POST = apiRoute({ role: 'operator', body: PeerCreateSchema }, async ({ req, caller, body }) =>
  Response.json(peerAnswer(await createPeer(body, requestActor(req, caller!))), { status: 201 }),
);
