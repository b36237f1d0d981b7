/**
 * Agent-card discovery and reading (a2a-protocol.md §1): where the card is, which protocol
 * versions the peer speaks over JSON-RPC, its endpoint, and the timing hint Switchboard peers
 * publish. The version is chosen from the card, never guessed from the URL.
 */
import { bodyError, httpRequest, TransportError } from './http-transport';
import type { ProtocolVersion } from './json-rpc';
import { isCardUrl, normalizeUrl } from './normalize-url';

type Json = Record<string, unknown>;

/**
 * The timing extension Switchboard cards carry (lib/server/agent-card.ts defines the same URI):
 * `capabilities.extensions[{uri, params: {responseWindowSeconds, lateResultGraceSeconds}}]`.
 * Any peer may publish it; a top-level `metadata.responseWindowSeconds` is read as well.
 */
import { TIMING_EXTENSION_URI } from '../protocol/extensions';

export interface CardInterface {
  version: ProtocolVersion;
  url: string;
}

export interface CardInfo {
  cardUrl: string;
  card: Json;
  name?: string;
  /** JSON-RPC interfaces we can speak, in the card's order of preference. */
  interfaces: CardInterface[];
  streaming: boolean;
  skills: { id: string; name: string; description?: string }[];
  /** The peer's response window, when its card says (ms). */
  responseWindowMs?: number;
}

const asJson = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);

function cardCandidates(url: string): string[] {
  if (isCardUrl(url)) return [url];
  const parsed = new URL(url);
  const base = `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  const out = [`${base}/.well-known/agent-card.json`, `${base}/.well-known/agent.json`];
  if (parsed.pathname.replace(/\/+$/, '') !== '') out.push(`${parsed.origin}/.well-known/agent-card.json`, `${parsed.origin}/.well-known/agent.json`);
  return out;
}

/**
 * Fetches the card: `<url>/.well-known/agent-card.json`, then `agent.json`, then the same at the
 * origin (a URL may name an agent path or a card directly). A network error stops at once.
 */
export async function fetchAgentCard(url: string, headers: Record<string, string>, timeoutMs: number, signal?: AbortSignal): Promise<CardInfo> {
  const tried: string[] = [];
  for (const candidate of cardCandidates(url)) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new TransportError(`agent card: no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const res = await httpRequest({ url: candidate, method: 'GET', headers: { ...headers, Accept: 'application/json' }, signal: controller.signal });
      const text = await res.text().catch((err) => Promise.reject(bodyError(err, controller.signal)));
      if (res.status === 401 || res.status === 403) throw new TransportError(`HTTP ${res.status} fetching the agent card at ${candidate}`, res.status);
      const card = res.status === 200 ? safeJson(text) : null;
      if (card) return describeCard(card, candidate);
      tried.push(`${candidate} (HTTP ${res.status}${res.status === 200 ? ', not a card' : ''})`);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
  throw new TransportError(`no agent card found; tried ${tried.join(', ')}`, 404);
}

function safeJson(text: string): Json | null {
  try {
    const value = asJson(JSON.parse(text));
    return value && typeof value.name === 'string' ? value : null;
  } catch {
    return null;
  }
}

function versionOf(v: unknown): ProtocolVersion | null {
  const s = String(v ?? '');
  if (/^1(\.|$)/.test(s)) return '1.0';
  if (/^0\.3(\.|$)/.test(s)) return '0.3';
  return null;
}

function interfacesOf(card: Json, cardUrl: string): CardInterface[] {
  const out: CardInterface[] = [];
  const add = (version: ProtocolVersion | null, url: unknown) => {
    if (!version || typeof url !== 'string' || !url) return;
    const absolute = new URL(url, cardUrl).toString();
    if (!out.some((i) => i.version === version && i.url === absolute)) out.push({ version, url: absolute });
  };
  for (const entry of Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : []) {
    const i = asJson(entry);
    if (i && String(i.protocolBinding ?? '').toUpperCase() === 'JSONRPC') add(versionOf(i.protocolVersion), i.url);
  }
  // v0.3 top level: `url` with `preferredTransport` JSONRPC (the default), or additionalInterfaces.
  const legacy = versionOf(card.protocolVersion ?? '0.3') ?? '0.3';
  if (legacy === '0.3' && String(card.preferredTransport ?? 'JSONRPC').toUpperCase() === 'JSONRPC') add('0.3', card.url);
  for (const entry of Array.isArray(card.additionalInterfaces) ? card.additionalInterfaces : []) {
    const i = asJson(entry);
    if (i && String(i.transport ?? '').toUpperCase() === 'JSONRPC') add('0.3', i.url);
  }
  return out;
}

function responseWindowOf(card: Json): number | undefined {
  const extensions = asJson(card.capabilities)?.extensions;
  for (const entry of Array.isArray(extensions) ? extensions : []) {
    const ext = asJson(entry);
    const seconds = ext?.uri === TIMING_EXTENSION_URI ? Number(asJson(ext.params)?.responseWindowSeconds) : NaN;
    if (Number.isFinite(seconds) && seconds > 0) return seconds * 1000;
  }
  const hinted = Number(asJson(card.metadata)?.responseWindowSeconds);
  return Number.isFinite(hinted) && hinted > 0 ? hinted * 1000 : undefined;
}

export function describeCard(card: Json, cardUrl: string): CardInfo {
  const skills = (Array.isArray(card.skills) ? card.skills : []).map(asJson).filter((s): s is Json => s !== null);
  return {
    cardUrl,
    card,
    ...(typeof card.name === 'string' ? { name: card.name } : {}),
    interfaces: interfacesOf(card, cardUrl),
    streaming: asJson(card.capabilities)?.streaming === true,
    skills: skills.map((s) => ({ id: String(s.id ?? ''), name: String(s.name ?? s.id ?? ''), ...(typeof s.description === 'string' ? { description: s.description } : {}) })),
    responseWindowMs: responseWindowOf(card),
  };
}

/**
 * The interface to call. `prefer` forces a version when the card offers it. When the card came
 * from the origin but the caller named an agent path that no interface lists, that path is the
 * endpoint (the origin card describes another agent of the same server).
 */
export function chooseInterface(info: CardInfo, requestedUrl: string, prefer?: ProtocolVersion): CardInterface {
  const candidates = prefer ? info.interfaces.filter((i) => i.version === prefer) : info.interfaces;
  if (!candidates.length) {
    const offered = info.interfaces.map((i) => i.version).join(', ') || 'none';
    throw new TransportError(`the peer's card offers no JSON-RPC interface${prefer ? ` for A2A ${prefer}` : ''} (offered: ${offered})`);
  }
  const chosen = candidates[0];
  if (isCardUrl(requestedUrl)) return chosen;
  const requested = normalizeUrl(requestedUrl);
  const listed = candidates.find((i) => normalizeUrl(i.url) === requested);
  if (listed) return listed;
  const cardBase = normalizeUrl(info.cardUrl.replace(/\/\.well-known\/[^/]+$/, ''));
  const cardFromOrigin = cardBase === normalizeUrl(new URL(info.cardUrl).origin);
  return cardFromOrigin && requested !== cardBase ? { version: chosen.version, url: requested } : chosen;
}
