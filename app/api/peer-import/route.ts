// POST /api/peer-import — create or update many peers at once (operator), or with dryRun only
// say what would change. Used by `switchboard peers import`. Secrets are compared here and never
// returned: each result is {name, action, changes (field names), error?} (lib/peers/import.ts).
import { apiRoute } from '@/lib/api/route';
import { importPeers, PeerImportSchema } from '@/lib/peers/import';
import { requestActor } from '@/lib/api/audit-actor';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = apiRoute({ role: 'operator', body: PeerImportSchema }, async ({ req, caller, body }) =>
  Response.json({ dryRun: body.dryRun, results: await importPeers(body, requestActor(req, caller!)) }),
);
