/**
 * What the A2A route files call: resolve the served agent, then serve its card or its
 * JSON-RPC endpoint. Unknown agents get a JSON 404 naming the slug.
 *
 * Before anything else, requests a web page made are refused (design §7, "open mode is not
 * open to web pages"): a foreign Origin or `Sec-Fetch-Site: cross-site` always, and in open
 * mode (no API key and no OIDC issuer) a Host that is not loopback or the public URL's (DNS rebinding).
 */
import { defaultAgent, findAgent } from '../agents/registry';
import { inboundAuthRequired, keysRequired } from '../auth/api-keys';
import { fromForeignPage, requestOrigin, trustedOpenHost } from '../auth/web-origin';
import { getSettings } from '../config/settings';
import { buildAgentCard, cardGenerationFor } from './agent-card';
import { cardResponse } from './card-response';
import { serveJsonRpc } from './serve-jsonrpc';
import { serveRest } from './serve-rest';
import { ensureBooted } from '../runtime/boot';

function unknownAgent(slug: string): Response {
  return Response.json({ error: { code: 'unknown_agent', message: `no served agent "${slug}"` } }, { status: 404 });
}

function refused(code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status: 403 });
}

/** Null when the request may go on; else the refusal. */
async function refuseWebPages(req: Request, opts: { checkOrigin: boolean }): Promise<Response | null> {
  if (opts.checkOrigin && fromForeignPage(req.headers)) {
    return refused('cross_origin', 'A2A calls from web pages of other sites are refused (Origin / Sec-Fetch-Site)');
  }
  if (!(await inboundAuthRequired()) && !trustedOpenHost(req.headers)) {
    return refused('untrusted_host', 'this open hub answers only to a loopback Host or SWITCHBOARD_PUBLIC_URL');
  }
  return null;
}

export async function serveAgentCard(req: Request, slug?: string): Promise<Response> {
  await ensureBooted();
  const refusal = await refuseWebPages(req, { checkOrigin: false }); // cards are public documents
  if (refusal) return refusal;
  const agent = slug ? findAgent(slug) : defaultAgent();
  if (!agent) return unknownAgent(slug!);
  const origin = requestOrigin(req.headers, `127.0.0.1:${getSettings().port}`);
  const card = buildAgentCard(agent, origin.url, { isDefault: !slug, keysRequired: await keysRequired(), oidc: getSettings().oidc, generation: cardGenerationFor(req) });
  return cardResponse(req, card, origin.reflected);
}

export async function serveAgentRpc(req: Request, slug?: string): Promise<Response> {
  await ensureBooted();
  const refusal = await refuseWebPages(req, { checkOrigin: true });
  if (refusal) return refusal;
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
  const refusal = await refuseWebPages(req, { checkOrigin: true });
  if (refusal) return refusal;
  const agent = findAgent(slug);
  if (!agent) return unknownAgent(slug);
  return serveRest(req, agent, restSegments(req, slug), verb);
}
