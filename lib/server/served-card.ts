/**
 * One way to produce the card Switchboard serves for an agent: built for the request's origin
 * with the security that applies now (API keys, OIDC issuers), then signed (card-signing.ts).
 * The public card (a2a-routes.ts) and the extended card (GetExtendedAgentCard, rpc-handlers.ts)
 * both come from here, so both carry the same signature scheme.
 */
import type { ServedAgent } from '../agent-runner';
import { keysRequired } from '../auth/api-keys';
import { getSettings } from '../config/settings';
import { requestOrigin, type HeaderSource } from '../auth/web-origin';
import { buildAgentCard, type CardGeneration } from './agent-card';
import { signedCard } from './card-signing';

export interface ServedCardOptions {
  isDefault: boolean;
  generation: CardGeneration;
  /** The extended card: the public one plus the agent's `extendedSkills`. */
  extended?: boolean;
}

export async function servedCard(agent: ServedAgent, baseUrl: string, opts: ServedCardOptions) {
  const card = buildAgentCard(agent, baseUrl, { ...opts, keysRequired: await keysRequired(), oidc: getSettings().oidc });
  return signedCard(card, baseUrl);
}

/** The origin a request reached (SWITCHBOARD_PUBLIC_URL, else its Host): the card's URLs and `reflected` for caching. */
export const cardOrigin = (headers: HeaderSource) => requestOrigin(headers, `127.0.0.1:${getSettings().port}`);
