// POST /a2a — A2A JSON-RPC (v0.3 and v1.0) for the default agent.
import { switchboard } from '@/lib/app';
import { serveAgentRpc } from '@/lib/server/a2a-routes';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  await switchboard(); // started (instrumentation.ts), else started now
  return serveAgentRpc(req);
}
