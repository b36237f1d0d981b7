/**
 * "Test" a peer from the dashboard: fetch its card with the peer's own auth and timeout, and
 * report reachability, latency, the protocol version and endpoint we would use, its skills, and
 * any timing warning. A reachable card is cached on the peer.
 */
import { savePeerCard } from '../db/peer-repo';
import { timeoutFloorWarning } from '../protocol/timeout-floor';
import { errorMessage } from '../log';
import { chooseInterface, fetchAgentCard } from '../client/agent-card';
import { resolveTarget, checkResponseWindow } from './resolve';
import { verifyPinnedCard } from './card-verify';
import type { ProtocolVersion } from '../protocol/types';

export interface PeerTestResult {
  peer: string;
  reachable: boolean;
  latencyMs: number;
  cardUrl?: string;
  name?: string;
  protocolVersion?: ProtocolVersion;
  versions?: ProtocolVersion[];
  endpointUrl?: string;
  streaming?: boolean;
  skills?: { id: string; name: string; description?: string }[];
  timeoutSeconds: number;
  timeoutSource: string;
  responseWindowSeconds?: number;
  warnings: string[];
  error?: string;
}

export async function testPeer(name: string): Promise<PeerTestResult> {
  const target = await resolveTarget({ peer: name });
  const floor = target.timeout.source === 'default' ? null : timeoutFloorWarning(target.timeout.ms / 1000, "the peer's timeout");
  const base = { peer: name, timeoutSeconds: target.timeout.ms / 1000, timeoutSource: target.timeout.source, warnings: floor ? [floor] : [] };
  const started = performance.now();
  try {
    const card = await fetchAgentCard(target.url, target.headers, target.timeout.ms);
    await verifyPinnedCard(target, card.card);
    const latencyMs = Math.round(performance.now() - started);
    const chosen = chooseInterface(card, target.url);
    await savePeerCard(name, { card: card.card, protocolVersion: chosen.version, endpointUrl: chosen.url });
    const warning = checkResponseWindow(target, card.responseWindowMs);
    return {
      ...base,
      reachable: true,
      latencyMs,
      cardUrl: card.cardUrl,
      ...(card.name ? { name: card.name } : {}),
      protocolVersion: chosen.version,
      versions: [...new Set(card.interfaces.map((i) => i.version))],
      endpointUrl: chosen.url,
      streaming: card.streaming,
      skills: card.skills,
      ...(card.responseWindowMs !== undefined ? { responseWindowSeconds: card.responseWindowMs / 1000 } : {}),
      warnings: [...base.warnings, ...(warning ? [warning] : [])],
    };
  } catch (err) {
    return { ...base, reachable: false, latencyMs: Math.round(performance.now() - started), error: errorMessage(err) };
  }
}
