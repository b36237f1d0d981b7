// GET /api/status — the served agents and every config error (file, entry, key, message), for
// operators and monitoring. Viewer role. `ok` is false while the config has errors; liveness
// stays GET /api/health, which answers {ok: true} whenever the server is up.
import { apiRoute } from '@/lib/api/route';
import { agentRegistry } from '@/lib/agents/registry';
import type { StatusResponse } from '@/lib/dashboard/wire';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = apiRoute({ role: 'viewer' }, () => {
  const registry = agentRegistry();
  const body: StatusResponse = {
    ok: registry.configErrors.length === 0,
    agents: [...registry.agents.keys()],
    configErrors: registry.configErrors,
  };
  return Response.json(body);
});
