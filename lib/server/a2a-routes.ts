/**
 * What the A2A route files call (once the app has started: app/a2a/*): resolve the served agent, then serve its card or its
 * JSON-RPC endpoint. An unknown agent is a 404 naming the slug, in the shape of what was asked
 * for (a JSON document for a card, a JSON-RPC error, an AIP-193 error on HTTP+JSON).
 *
 * Before anything else, requests a web page made are refused ("open mode is not
 * open to web pages"): a foreign Origin or `Sec-Fetch-Site: cross-site` always, and in open
 * mode (no API key and no OIDC issuer) a Host that is not loopback or the public URL's (DNS rebinding).
 */
import { defaultAgent, findAgent } from '../agents/registry';
import { inboundAuthRequired } from '../auth/api-keys';
import { fromForeignPage, trustedOpenHost } from '../auth/web-origin';
import { cardGenerationFor } from './agent-card';
import { cardResponse } from './card-response';
import { publishedKeys } from './card-signing';
import { cardOrigin, servedCard } from './served-card';
import { serveJsonRpc, unknownAgentRpc } from './serve-jsonrpc';
import { restError, serveRest, type Verb } from './serve-rest';
import { A2AError } from '../protocol/errors';
import { safeDecode } from '../util/path-encoding';

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
  const refusal = await refuseWebPages(req, { checkOrigin: false }); // cards are public documents
  if (refusal) return refusal;
  const agent = slug ? findAgent(slug) : defaultAgent();
  if (!agent) return unknownAgent(slug!);
  const origin = cardOrigin(req.headers);
  return cardResponse(req, await servedCard(agent, origin.url, { isDefault: !slug, generation: cardGenerationFor(req) }), origin.reflected);
}

/** The public keys the cards' signatures verify with (current and previous: rotation). */
export async function serveJwks(req: Request): Promise<Response> {
  const refusal = await refuseWebPages(req, { checkOrigin: false }); // public, like the cards
  if (refusal) return refusal;
  return Response.json(await publishedKeys(), { headers: { 'Cache-Control': 'public, max-age=300', 'Content-Type': 'application/jwk-set+json' } });
}

export async function serveAgentRpc(req: Request, slug?: string): Promise<Response> {
  const refusal = await refuseWebPages(req, { checkOrigin: true });
  if (refusal) return refusal;
  const agent = slug ? findAgent(slug) : defaultAgent();
  // Each binding answers in its own error shape: JSON-RPC here, AIP-193 below a slug.
  if (!agent) return unknownAgentRpc(req, slug!);
  return serveJsonRpc(req, agent);
}

/**
 * The path below `/a2a/<slug>/`, decoded segment by segment (`tasks/<id>:cancel` keeps its
 * colon), or null when a segment's percent-encoding is malformed.
 */
function restSegments(req: Request, slug: string): string[] | null {
  const path = new URL(req.url).pathname.slice(`/a2a/${encodeURIComponent(slug)}/`.length);
  const segments: string[] = [];
  for (const s of path.split('/').filter(Boolean)) {
    const decoded = safeDecode(s);
    if (decoded === null) return null;
    segments.push(decoded);
  }
  return segments;
}

export async function serveAgentRest(req: Request, slug: string, verb: Verb): Promise<Response> {
  const refusal = await refuseWebPages(req, { checkOrigin: true });
  if (refusal) return refusal;
  const agent = findAgent(slug);
  // The HTTP+JSON binding answers in its own (AIP-193) error shape, an unknown agent included.
  if (!agent) return restError(new A2AError('methodNotFound', `no served agent "${slug}"`));
  const segments = restSegments(req, slug);
  if (!segments) return restError(new A2AError('invalidRequest', 'path: malformed percent-encoding'));
  return serveRest(req, agent, segments, verb);
}
