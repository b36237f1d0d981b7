// /a2a/<slug>/message:send, /a2a/<slug>/tasks/<id>… — A2A v1.0 HTTP+JSON for one served agent.
import { switchboard } from '@/lib/app';
import { serveAgentRest } from '@/lib/server/a2a-routes';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ slug: string }> };
type Verb = 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';

function serveVerb(verb: Verb) {
  return async (req: Request, ctx: Ctx): Promise<Response> => {
    await switchboard(); // started (instrumentation.ts), else started now
    return serveAgentRest(req, (await ctx.params).slug, verb);
  };
}

export const GET = serveVerb('GET');
export const POST = serveVerb('POST');
export const DELETE = serveVerb('DELETE');
// Verbs the binding has no operation for get its 405 in the binding's error shape, not Next's empty one.
export const PUT = serveVerb('PUT');
export const PATCH = serveVerb('PATCH');
