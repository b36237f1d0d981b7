// GET /.well-known/agent-card.json (and the agent.json alias) — the default agent's card.
import { serveAgentCard } from '@/lib/server/a2a-routes';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export function GET(req: Request): Promise<Response> {
  return serveAgentCard(req);
}
