// GET /api/status — the served agents and every config error (file, entry, key, message), for
// operators and monitoring. Viewer role; a viewer sees the config file by its name only, an
// operator its path. `ok` is false while the config has errors; liveness stays
// GET /api/health, which answers {ok: true} whenever the server is up.
import path from 'node:path';
import { apiRoute } from '@/lib/api/route';
import { agentRegistry } from '@/lib/agents/registry';
import type { ConfigIssueWire, StatusResponse } from '@/lib/dashboard/wire';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

function withoutPath(issue: ConfigIssueWire): ConfigIssueWire {
  if (!issue.file) return issue;
  const name = path.basename(issue.file);
  const hide = (text: string) => text.split(issue.file!).join(name);
  return { ...issue, file: name, message: hide(issue.message), text: hide(issue.text) };
}

export const GET = apiRoute({ role: 'viewer' }, ({ caller }) => {
  const registry = agentRegistry();
  const body: StatusResponse = {
    ok: registry.configErrors.length === 0,
    agents: [...registry.agents.keys()],
    configErrors: caller?.role === 'operator' ? registry.configErrors : registry.configErrors.map(withoutPath),
  };
  return Response.json(body);
});
