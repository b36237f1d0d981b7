// /a2a/<slug>/message:send, /a2a/<slug>/tasks/<id>… — A2A v1.0 HTTP+JSON for one served agent.
import { switchboard } from '@/lib/app';
import { serveAgentRest } from '@/lib/server/a2a-routes';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ slug: string }> };

export async function GET(req: Request, ctx: Ctx): Promise<Response> {
  await switchboard(); // started (instrumentation.ts), else started now
  return serveAgentRest(req, (await ctx.params).slug, 'GET');
}

export async function POST(req: Request, ctx: Ctx): Promise<Response> {
  await switchboard();
  return serveAgentRest(req, (await ctx.params).slug, 'POST');
}

export async function DELETE(req: Request, ctx: Ctx): Promise<Response> {
  await switchboard();
  return serveAgentRest(req, (await ctx.params).slug, 'DELETE');
}

// Verbs the binding has no operation for get its 405 in the binding's error shape, not Next's empty one.
export async function PUT(req: Request, ctx: Ctx): Promise<Response> {
  await switchboard();
  return serveAgentRest(req, (await ctx.params).slug, 'PUT');
}

export async function PATCH(req: Request, ctx: Ctx): Promise<Response> {
  await switchboard();
  return serveAgentRest(req, (await ctx.params).slug, 'PATCH');
}
