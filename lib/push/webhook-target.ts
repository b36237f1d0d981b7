/**
 * SSRF guard for push webhooks (a2a-protocol.md §7, design §7): private, loopback and
 * link-local targets are refused unless the host is on SWITCHBOARD_PUSH_ALLOWLIST.
 */
import { lookup } from 'node:dns/promises';
import net from 'node:net';

function isPrivateAddress(address: string): boolean {
  if (net.isIPv4(address)) {
    const [a, b] = address.split('.').map(Number);
    return a === 10 || a === 127 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  const v6 = address.toLowerCase();
  if (v6.startsWith('::ffff:')) return isPrivateAddress(v6.slice(7));
  return v6 === '::1' || v6 === '::' || v6.startsWith('fc') || v6.startsWith('fd') || v6.startsWith('fe80');
}

/** Returns why the URL may not be used, or null if it may. */
export async function refuseWebhookTarget(url: string, allowlist: string[]): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url: expected an absolute URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'url: expected an http(s) URL';
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (allowlist.includes(host)) return null;
  if (host === 'localhost' || host.endsWith('.localhost')) return `url: ${host} is a loopback host; add it to SWITCHBOARD_PUSH_ALLOWLIST to allow it`;
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return `url: host ${host} does not resolve`;
  }
  const privateOne = addresses.find(isPrivateAddress);
  return privateOne ? `url: ${host} resolves to private address ${privateOne}; add it to SWITCHBOARD_PUSH_ALLOWLIST to allow it` : null;
}
