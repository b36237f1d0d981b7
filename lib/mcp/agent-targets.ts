/**
 * What a model chooses from and names in `dispatch`: this hub's served agents and its configured
 * peers, each with the reference `dispatch` takes (`target`). Both tools use this file, so a
 * listed target is always one dispatch accepts (decisions 148, 320):
 * - a URL (http or https, or a task's recorded grpc:// or rest+http(s):// endpoint) is dispatched to as given;
 * - a configured peer's name is that peer (as in the CLI's `dispatch <peer|url>`);
 * - a served agent's slug is that agent at this hub's own URL (`<public URL>/a2a/<slug>`).
 * A name that is both a peer and a served slug is the peer (the meaning a name already had), and
 * such an agent is listed with its URL as target instead.
 */
import { agentRegistry } from '../agents/registry';
import { listPeers } from '../peers/registry';
import { selfBaseUrl } from '../peers/sync';
import type { DispatchRequest } from '../engine';
import { isUrlTarget } from '../client/endpoint-binding';

export interface ListedAgent {
  kind: 'served' | 'peer';
  /** The served agent's slug, or the peer's name. */
  name: string;
  /** What to pass as dispatch's `target`. */
  target: string;
  /** The agent's own name (its card's), when it has one. */
  title: string | null;
  description: string;
  skills: { id: string; name: string; description?: string }[];
  /** Whether it streams its output (null: its card was not fetched yet). */
  streaming: boolean | null;
  /** Where it is reached (the served agent's URL at this hub, or the peer's URL). */
  url: string;
}

const servedUrl = (slug: string) => `${selfBaseUrl()}/a2a/${slug}`;

export async function listAgents(): Promise<ListedAgent[]> {
  const peers = (await listPeers()).map(
    (p): ListedAgent => ({
      kind: 'peer',
      name: p.name,
      target: p.name,
      title: p.card?.name ?? null,
      description: p.notes ?? p.card?.name ?? p.url,
      skills: p.card?.skills ?? [],
      streaming: p.card?.streaming ?? null,
      url: p.url,
    }),
  );
  const peerNames = new Set(peers.map((p) => p.name));
  const served = [...agentRegistry().agents.values()].map(
    (a): ListedAgent => ({
      kind: 'served',
      name: a.slug,
      target: peerNames.has(a.slug) ? servedUrl(a.slug) : a.slug,
      title: a.name,
      description: a.description,
      skills: a.skills.map((s) => ({ id: s.id, name: s.name, ...(s.description ? { description: s.description } : {}) })),
      streaming: true,
      url: servedUrl(a.slug),
    }),
  );
  return [...served, ...peers];
}

/** Dispatch's `target` as the dispatch request's peer or url (the peer resolver then finds it). */
export async function dispatchTargetOf(target: string): Promise<Pick<DispatchRequest, 'peer' | 'url'>> {
  if (isUrlTarget(target)) return { url: target };
  if (!agentRegistry().agents.has(target)) return { peer: target };
  const peerNamed = (await listPeers()).some((p) => p.name === target);
  return peerNamed ? { peer: target } : { url: servedUrl(target) };
}
