/**
 * A relay agent's card facts the config left open (name, description, skills) come from the
 * peer's card: read at boot, and again from the peer's cached card (refreshed by every
 * connection to it) after each relay turn. Configured facts always win.
 */
import type { AgentSkill, ServedAgent } from '../../agent-runner';
import { findAgent, agentRegistry } from '../../agents/registry';
import { findPeerRecord } from '../../db/peer-repo';
import { connect } from '../../peers/connect';
import { resolveTarget } from '../../peers/resolve';
import { errorMessage, log } from '../../log';
import { appPart } from '../../process-singleton';

type Json = Record<string, unknown>;

/** Bounds on what a peer's card may put into ours. */
const MAX_SKILLS = 32;
const MAX_TEXT = 2_000;

function skillsOf(card: Json): AgentSkill[] {
  const raw = Array.isArray(card.skills) ? card.skills.slice(0, MAX_SKILLS) : [];
  return raw.flatMap((s): AgentSkill[] => {
    if (!s || typeof s !== 'object') return [];
    const skill = s as Json;
    const name = String(skill.name ?? skill.id ?? '').slice(0, MAX_TEXT);
    if (!name) return [];
    const tags = Array.isArray(skill.tags) ? skill.tags.filter((t): t is string => typeof t === 'string').slice(0, 16) : [];
    const examples = Array.isArray(skill.examples) ? skill.examples.filter((t): t is string => typeof t === 'string').slice(0, 16) : undefined;
    return [{ id: String(skill.id ?? name).slice(0, 200), name, description: String(skill.description || name).slice(0, MAX_TEXT), tags: tags.length ? tags : ['relay'], ...(examples?.length ? { examples } : {}) }];
  });
}

/** Fills the open facts of `agent` from the peer's card (mutates the served agent). */
export function applyPeerCard(agent: ServedAgent, card: Json): void {
  const open = agent.cardDefaults;
  if (!open) return;
  if (open.name && typeof card.name === 'string' && card.name) agent.name = card.name.slice(0, 200);
  if (open.description && typeof card.description === 'string' && card.description) agent.description = card.description.slice(0, MAX_TEXT);
  const skills = open.skills ? skillsOf(card) : [];
  if (skills.length) agent.skills = skills;
}

/** How often a relay agent's card facts are re-read from the peer's cached card. */
const REFRESH_EVERY_MS = 60_000;
const refreshedAt = () => appPart('relayCardRefreshed', () => new Map<string, number>());

/** After a turn (at most once a minute per agent): the peer's card as last cached on its peer row. */
export async function refreshRelayCard(slug: string): Promise<void> {
  const agent = findAgent(slug);
  if (!agent?.relay || !agent.cardDefaults) return;
  const last = refreshedAt().get(slug) ?? 0;
  if (Date.now() - last < REFRESH_EVERY_MS) return;
  refreshedAt().set(slug, Date.now());
  const peer = await findPeerRecord(agent.relay.peer).catch(() => null);
  if (peer?.card) applyPeerCard(agent, peer.card);
}

/** At boot: read each relay peer's card once (a peer that is down keeps the config's facts). */
export async function loadRelayCards(): Promise<void> {
  const relays = [...agentRegistry().agents.values()].filter((a) => a.relay && a.cardDefaults);
  await Promise.all(
    relays.map(async (agent) => {
      try {
        const { card } = await connect(await resolveTarget({ peer: agent.relay!.peer }));
        if (card) applyPeerCard(agent, card.card);
        else await refreshRelayCard(agent.slug);
      } catch (err) {
        log.warn('relay agent: the peer card could not be read; the config facts are served', { agent: agent.slug, peer: agent.relay!.peer, error: errorMessage(err) });
      }
    }),
  );
}

declare module '../../process-singleton' {
  interface AppParts {
    /** When each relay peer's card was read. */
    relayCardRefreshed: Map<string, number>;
  }
}
