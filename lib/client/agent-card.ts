/**
 * Agent-card discovery and reading (the A2A specification): where the card is, which protocol
 * versions the peer speaks over JSON-RPC, its endpoint, and the timing hint Switchboard peers
 * publish. The version is chosen from the card, never guessed from the URL.
 */
import { bodyError, httpRequest, TransportError } from './http-transport';
import type { ProtocolVersion } from './json-rpc';
import { isCardUrl, normalizeUrl } from './normalize-url';
import { linkedSignal } from '../util/abortable';
import { grpcEndpoint } from './grpc-endpoint';
import { bindingOf, restEndpoint } from './endpoint-binding';

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
  /** Interfaces we can speak: JSON-RPC in the card's order of preference, then HTTP+JSON 1.0 (`rest+http(s)://`), then gRPC 1.0 (`grpc://`). */
  interfaces: CardInterface[];
  /** Other bindings the card offers that we do not speak (e.g. `HTTP+JSON 1.0`), for errors. */
  otherBindings: string[];
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
 * Card requests say `A2A-Version: 1.0`, as the a2a-js 1.x client does: a v1.0-only server
 * refuses a card request without it (400, -32009), and v0.3 servers ignore it. A dispatch that
 * asks for 0.3 sends none, so a dual server answers with its v0.3 card.
 */
const cardVersionHeader = (prefer?: ProtocolVersion): Record<string, string> => (prefer === '0.3' ? {} : { 'A2A-Version': '1.0' });

/** What a card URL answered when it was not a card, for the error: status, and any error. */
function refusalOf(status: number, text: string): string {
  const error = asJson(safeParse(text)?.error);
  const detail = error ? `: ${String(error.message ?? '').slice(0, 200)}${error.code !== undefined ? ` (JSON-RPC ${String(error.code)})` : ''}` : '';
  return `HTTP ${status}${status === 200 ? ', not a card' : ''}${detail}`;
}

async function getCard(url: string, headers: Record<string, string>, timeoutMs: number, signal?: AbortSignal): Promise<{ status: number; text: string }> {
  const controller = linkedSignal([signal], { ms: timeoutMs, reason: () => new TransportError(`agent card: no answer within ${timeoutMs / 1000} s`) });
  try {
    const res = await httpRequest({ url, method: 'GET', headers: { ...headers, Accept: 'application/json' }, signal: controller.signal });
    const text = await res.text().catch((err) => Promise.reject(bodyError(err, controller.signal)));
    if (res.status === 401 || res.status === 403) throw new TransportError(`HTTP ${res.status} fetching the agent card at ${url}`, res.status);
    return { status: res.status, text };
  } finally {
    controller.dispose();
  }
}

/**
 * Fetches the card. A URL that names a card (a `.json` path or one under `/.well-known/`, such
 * as VoltAgent's `/.well-known/<agent>/agent-card.json`) is the card, nothing is appended to it.
 * Otherwise `<url>/.well-known/agent-card.json`, then `agent.json`, then the same at the origin.
 * A server that refuses the version header (400) is asked once more without it. A network
 * error stops at once.
 */
export async function fetchAgentCard(url: string, headers: Record<string, string>, timeoutMs: number, opts: { prefer?: ProtocolVersion; signal?: AbortSignal } = {}): Promise<CardInfo> {
  const tried: string[] = [];
  const versionHeader = cardVersionHeader(opts.prefer);
  for (const candidate of cardCandidates(url)) {
    let answer = await getCard(candidate, { ...headers, ...versionHeader }, timeoutMs, opts.signal);
    if (answer.status === 400 && Object.keys(versionHeader).length) answer = await getCard(candidate, headers, timeoutMs, opts.signal);
    const card = answer.status === 200 ? safeJson(answer.text) : null;
    if (card) return describeCard(card, candidate);
    tried.push(`${candidate} (${refusalOf(answer.status, answer.text)})`);
  }
  throw new TransportError(`no agent card found; tried ${tried.join(', ')}`, 404);
}

function safeParse(text: string): Json | null {
  try {
    return asJson(JSON.parse(text));
  } catch {
    return null;
  }
}

function safeJson(text: string): Json | null {
  const value = safeParse(text);
  return value && typeof value.name === 'string' ? value : null;
}

function versionOf(v: unknown): ProtocolVersion | null {
  const s = String(v ?? '');
  if (/^1(\.|$)/.test(s)) return '1.0';
  if (/^0\.3(\.|$)/.test(s)) return '0.3';
  return null;
}

/** Bindings other than JSON-RPC, HTTP+JSON 1.0 and gRPC 1.0 that the card lists (`HTTP+JSON 0.3`, `GRPC 0.3`...). */
function otherBindingsOf(card: Json): string[] {
  const out = new Set<string>();
  for (const entry of Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : []) {
    const i = asJson(entry);
    const binding = String(i?.protocolBinding ?? '').toUpperCase();
    if ((binding === 'GRPC' || binding === 'HTTP+JSON') && versionOf(i?.protocolVersion) === '1.0') continue;
    if (binding && binding !== 'JSONRPC') out.add(`${binding} ${String(i?.protocolVersion ?? '')}`.trim());
  }
  const preferred = String(card.preferredTransport ?? 'JSONRPC').toUpperCase();
  if (preferred !== 'JSONRPC' && typeof card.url === 'string') out.add(`${preferred} 0.3`);
  for (const entry of Array.isArray(card.additionalInterfaces) ? card.additionalInterfaces : []) {
    const transport = String(asJson(entry)?.transport ?? '').toUpperCase();
    if (transport && transport !== 'JSONRPC') out.add(`${transport} 0.3`);
  }
  return [...out];
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
  // JSON-RPC is preferred whenever offered; then HTTP+JSON (the same HTTP transport and
  // credentials rule), then gRPC, for peers that offer nothing else (decision 195).
  for (const [binding, endpointOf] of [
    ['HTTP+JSON', (url: string, tenant?: string) => restEndpoint(new URL(url, cardUrl).toString(), tenant)],
    ['GRPC', grpcEndpoint],
  ] as const) {
    for (const entry of Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : []) {
      const i = asJson(entry);
      if (!i || String(i.protocolBinding ?? '').toUpperCase() !== binding || versionOf(i.protocolVersion) !== '1.0' || typeof i.url !== 'string' || !i.url) continue;
      const endpoint = endpointOf(i.url, typeof i.tenant === 'string' ? i.tenant : undefined);
      if (!out.some((o) => o.url === endpoint)) out.push({ version: '1.0', url: endpoint });
    }
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
    otherBindings: otherBindingsOf(card),
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
    const offered = [...new Set(info.interfaces.map((i) => `${bindingOf(i.url)} ${i.version}`)), ...info.otherBindings].join(', ') || 'none';
    throw new TransportError(`the peer's card offers no interface we speak${prefer ? ` for A2A ${prefer}` : ''} (JSON-RPC, HTTP+JSON 1.0, gRPC 1.0; offered: ${offered})`);
  }
  const chosen = candidates[0];
  if (isCardUrl(requestedUrl) || bindingOf(chosen.url) !== 'JSONRPC') return chosen;
  const requested = normalizeUrl(requestedUrl);
  const listed = candidates.find((i) => bindingOf(i.url) === 'JSONRPC' && normalizeUrl(i.url) === requested);
  if (listed) return listed;
  const cardBase = normalizeUrl(info.cardUrl.replace(/\/\.well-known\/[^/]+$/, ''));
  const cardFromOrigin = cardBase === normalizeUrl(new URL(info.cardUrl).origin);
  return cardFromOrigin && requested !== cardBase ? { version: chosen.version, url: requested } : chosen;
}
