/**
 * What the A2A route files call: resolve the served agent, then serve its card or its
 * JSON-RPC endpoint. Unknown agents get a JSON 404 naming the slug.
 */
import { defaultAgent, findAgent } from '../agents/registry';
import { keysRequired } from '../auth/api-keys';
import { buildAgentCard, cardGenerationFor } from './agent-card';
import { publicBaseUrl } from './base-url';
import { cardResponse } from './card-response';
import { serveJsonRpc } from './serve-jsonrpc';
import { serveRest } from './serve-rest';
import { ensureBooted } from '../runtime/boot';

function unknownAgent(slug: string): Response {
  return Response.json({ error: { code: 'unknown_agent', message: `no served agent "${slug}"` } }, { status: 404 });
}

export async function serveAgentCard(req: Request, slug?: string): Promise<Response> {
  await ensureBooted();
  const agent = slug ? findAgent(slug) : defaultAgent();
  if (!agent) return unknownAgent(slug!);
  const card = buildAgentCard(agent, publicBaseUrl(req), { isDefault: !slug, keysRequired: await keysRequired(), generation: cardGenerationFor(req) });
  return cardResponse(req, card);
}

export async function serveAgentRpc(req: Request, slug?: string): Promise<Response> {
  await ensureBooted();
  const agent = slug ? findAgent(slug) : defaultAgent();
  if (!agent) return unknownAgent(slug!);
  return serveJsonRpc(req, agent);
}

/** The path below `/a2a/<slug>/`, decoded segment by segment (`tasks/<id>:cancel` keeps its colon). */
function restSegments(req: Request, slug: string): string[] {
  const path = new URL(req.url).pathname.slice(`/a2a/${encodeURIComponent(slug)}/`.length);
  return path.split('/').filter(Boolean).map((s) => decodeURIComponent(s));
}

export async function serveAgentRest(req: Request, slug: string, verb: 'GET' | 'POST' | 'DELETE'): Promise<Response> {
  await ensureBooted();
  const agent = findAgent(slug);
  if (!agent) return unknownAgent(slug);
  return serveRest(req, agent, restSegments(req, slug), verb);
}
