/**
 * Registration-time check of a push webhook URL (the A2A specification): syntax, and
 * the address when the host is an IP literal. Host names (`localhost` included) are not
 * resolved here: whether a name resolves must not be told to callers (an
 * oracle), and the answer could change before delivery anyway. Delivery checks every resolved
 * address at connect time (guarded-post.ts).
 */
import dns from 'node:dns/promises';
import { parseIpLiteral, refuseAddress, type PushAllowlist } from './address-policy';

const ALLOWLIST_HINT = 'add it to SWITCHBOARD_PUSH_ALLOWLIST to allow it';

/** Returns why the URL may not be used, or null if it may. */
export function refuseWebhookTarget(url: string, allowlist: PushAllowlist): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url: expected an absolute URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'url: expected an http(s) URL';
  if (parsed.username || parsed.password) return 'url: credentials in the URL are not allowed; use token or authentication';
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (allowlist.allowsHost(host)) return null;
  const literal = parseIpLiteral(host);
  const refused = literal && refuseAddress(literal, allowlist);
  return refused ? `url: ${refused}; ${ALLOWLIST_HINT}` : null;
}

/**
 * The start-up check of an operator's webhook (notification rules): every address its host name
 * resolves to now, so a name pointing into the private network stops start-up as an IP literal
 * does. A name that does not resolve passes here (DNS may come later); delivery checks again.
 */
export async function refuseResolvedTarget(url: string, allowlist: PushAllowlist): Promise<string | null> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (allowlist.allowsHost(host) || parseIpLiteral(host)) return null;
  let addresses: { address: string }[];
  try {
    addresses = await dns.lookup(host, { all: true });
  } catch {
    return null;
  }
  const refused = addresses.map((a) => refuseAddress(a.address, allowlist)).find((r) => r !== null);
  return refused ? `url: ${host} resolves to a refused address: ${refused}; ${ALLOWLIST_HINT}` : null;
}
