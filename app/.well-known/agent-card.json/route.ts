// GET /.well-known/agent-card.json (and the agent.json alias) — the default agent's card.
import { switchboard } from '@/lib/app';
import { serveAgentCard } from '@/lib/server/a2a-routes';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  await switchboard(); // started (instrumentation.ts), else started now
  return serveAgentCard(req);
}
