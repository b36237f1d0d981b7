// POST /a2a/<slug> — A2A JSON-RPC (v0.3 and v1.0) for one served agent.
import { switchboard } from '@/lib/app';
import { serveAgentRpc } from '@/lib/server/a2a-routes';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(req: Request, ctx: { params: Promise<{ slug: string }> }): Promise<Response> {
  await switchboard(); // started (instrumentation.ts), else started now
  return serveAgentRpc(req, (await ctx.params).slug);
}
