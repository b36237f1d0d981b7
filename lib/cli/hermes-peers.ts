/**
 * Hermes Agent's outbound peer list (`a2a_agents` in ~/.hermes/config.yaml) as Switchboard peer
 * entries, for `switchboard peers import --from hermes`. Each key is a peer:
 *
 *   a2a_agents:
 *     researcher:
 *       url: "http://localhost:9999"
 *       auth: { type: bearer, token: "sk-..." }
 *       timeout: 120            # seconds
 *       headers: { X-Team: blue }
 *       capabilities: [web_search]
 *       tenant: research
 *
 * What Switchboard has no use for is listed per entry (`ignored`), never dropped silently; an
 * entry that cannot become a peer is refused here with its key and the reason.
 */
import { parse as parseYaml } from 'yaml';
import type { PeerInput } from '../dashboard/peer-wire';
import type { PeerAuthInput } from '../protocol/peer-auth';

export interface HermesPeerEntry {
  /** The key under `a2a_agents`, also the peer's name. */
  key: string;
  /** What is sent to the Switchboard, or undefined when the entry was refused here. */
  peer?: Required<Pick<PeerInput, 'name' | 'url' | 'auth' | 'headers'>> & { timeoutSeconds: number | null; notes: string };
  /** Why the entry cannot be imported (naming the field). */
  refusal?: string;
  /** Fields Switchboard does not use, each with why. */
  ignored: string[];
}

/** Headers Switchboard's client sets itself (as Hermes protects Content-Type, Accept, A2A-Version). */
const CLIENT_HEADERS = ['content-type', 'accept', 'a2a-version', 'content-length', 'host', 'transfer-encoding', 'connection'];
const MAX_TIMEOUT_SECONDS = 86_400;
const ENV_REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

const WHY_IGNORED: Record<string, string> = {
  capabilities: "capabilities (Hermes's a2a_orchestrate matching; Switchboard dispatches by peer name)",
  tenant: 'tenant (Switchboard does not send params.tenant; point url at the tenant\'s own endpoint)',
};

export class HermesConfigError extends Error {}

/** The entries of a Hermes config file's text; throws HermesConfigError when the file as a whole is unusable. */
export function hermesPeerEntries(text: string, source: string, env: Readonly<Record<string, string | undefined>> = process.env): HermesPeerEntry[] {
  let doc: unknown;
  try {
    doc = parseYaml(text, { maxAliasCount: 100 });
  } catch (err) {
    throw new HermesConfigError(`${source}: not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  const agents = isMapping(doc) ? doc.a2a_agents : undefined;
  if (agents === undefined || agents === null) throw new HermesConfigError(`${source}: has no a2a_agents section (Hermes's outbound peers); nothing to import`);
  if (!isMapping(agents)) throw new HermesConfigError(`${source}: a2a_agents must be a mapping of peer name to {url, auth, timeout, headers}`);
  return Object.entries(agents).map(([key, value]) => entryOf(key, value, source, env));
}

function entryOf(key: string, value: unknown, source: string, env: Readonly<Record<string, string | undefined>>): HermesPeerEntry {
  const ignored: string[] = [];
  const refuse = (refusal: string): HermesPeerEntry => ({ key, refusal, ignored });
  if (!isMapping(value)) return refuse('expected a mapping with url (and optionally auth, timeout, headers)');
  if (typeof value.url !== 'string' || !value.url.trim()) return refuse('url: expected the peer\'s base URL');
  const auth = authOf(value.auth, env);
  if (typeof auth === 'string') return refuse(auth);
  const timeout = timeoutOf(value.timeout, ignored);
  if (typeof timeout === 'string') return refuse(timeout);
  const headers = headersOf(value.headers, ignored);
  if (typeof headers === 'string') return refuse(headers);
  for (const field of Object.keys(value)) {
    if (!['url', 'auth', 'timeout', 'headers'].includes(field)) ignored.push(WHY_IGNORED[field] ?? `${field} (not a Switchboard peer setting)`);
  }
  const notes = `imported from Hermes ${source} (a2a_agents.${key})`;
  return { key, ignored, peer: { name: key, url: value.url.trim(), auth, headers, timeoutSeconds: timeout, notes } };
}

/** Hermes sends only `bearer` (Authorization: Bearer <token>); no auth means none. */
function authOf(auth: unknown, env: Readonly<Record<string, string | undefined>>): PeerAuthInput | string {
  if (auth === undefined || auth === null) return { type: 'none' };
  if (!isMapping(auth)) return 'auth: expected {type: bearer, token: "..."}';
  if (auth.type !== 'bearer') return `auth.type: "${String(auth.type)}" is not supported; Hermes and this import know only "bearer"`;
  if (typeof auth.token !== 'string' || !auth.token) return 'auth.token: expected the bearer token';
  const reference = ENV_REFERENCE.exec(auth.token);
  if (!reference) return { type: 'bearer', token: auth.token };
  const token = env[reference[1]];
  return token ? { type: 'bearer', token } : `auth.token: environment variable ${reference[1]} is not set`;
}

/** Hermes's `timeout` (seconds) becomes the peer's client timeout T; 0 or none leaves Switchboard's default. */
function timeoutOf(timeout: unknown, ignored: string[]): number | null | string {
  if (timeout === undefined || timeout === null) return null;
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout < 0 || timeout > MAX_TIMEOUT_SECONDS) {
    return `timeout: expected seconds from 0 to ${MAX_TIMEOUT_SECONDS}, got ${JSON.stringify(timeout)}`;
  }
  if (timeout === 0) {
    ignored.push("timeout 0 (in Hermes a non-blocking socket, not \"no limit\"); Switchboard's default client timeout applies");
    return null;
  }
  return timeout;
}

function headersOf(headers: unknown, ignored: string[]): Record<string, string> | string {
  if (headers === undefined || headers === null) return {};
  if (!isMapping(headers)) return 'headers: expected a mapping of header name to value';
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string' && typeof value !== 'number') return `headers.${name}: expected a string value`;
    if (CLIENT_HEADERS.includes(name.toLowerCase())) ignored.push(`headers.${name} (the client sets it itself, as Hermes does)`);
    else kept[name] = String(value);
  }
  return kept;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
