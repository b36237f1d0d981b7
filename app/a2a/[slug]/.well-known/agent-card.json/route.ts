// GET /a2a/<slug>/.well-known/agent-card.json (and agent.json) — one served agent's card.
import { switchboard } from '@/lib/app';
import { serveAgentCard } from '@/lib/server/a2a-routes';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<{ slug: string }> }): Promise<Response> {
  await switchboard(); // started (instrumentation.ts), else started now
  return serveAgentCard(req, (await ctx.params).slug);
}
