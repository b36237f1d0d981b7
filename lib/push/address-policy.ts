/**
 * Which IP addresses an outbound webhook may reach. Only public unicast space is
 * allowed: every special-purpose range of both families is refused, including the forms that
 * embed an IPv4 address in IPv6 (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64
 * 64:ff9b::/96 and 64:ff9b:1::/48, 6to4, Teredo). Range data comes from ipaddr.js (IANA
 * special-purpose registries); IPv6 must also lie in global unicast 2000::/3, which covers the
 * rest of the reserved space (::/8 with the IPv4-compatible form, 100::/64, ...).
 */
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** Parses an IP literal (brackets allowed); null for a host name. */
export function parseIpLiteral(host: string): Address | null {
  const bare = host.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(bare) ? ipaddr.parse(bare) : null;
}

/** The special-purpose range an address is in (e.g. `loopback`, `ipv4Mapped`), or null if public. */
export function specialRange(address: Address): string | null {
  if (address.kind() === 'ipv4') {
    const range = (address as ipaddr.IPv4).range();
    return range === 'unicast' ? null : range;
  }
  const v6 = address as ipaddr.IPv6;
  const range = v6.range();
  if (range !== 'unicast') return range;
  return v6.match(GLOBAL_UNICAST_V6) ? null : 'reserved';
}

/**
 * Operator exceptions (SWITCHBOARD_PUSH_ALLOWLIST): host names matched as written in the URL,
 * and IP addresses or CIDR ranges matched against the address actually connected to.
 */
export class PushAllowlist {
  private readonly hosts = new Set<string>();
  private readonly ranges: [Address, number][] = [];

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const value = entry.trim().toLowerCase().replace(/^\[|\]$/g, '');
      if (ipaddr.isValidCIDR(value)) this.ranges.push(ipaddr.parseCIDR(value));
      else if (ipaddr.isValid(value)) this.ranges.push(exact(ipaddr.parse(value)));
      else if (value) this.hosts.add(value);
    }
  }

  allowsHost(host: string): boolean {
    return this.hosts.has(host.toLowerCase().replace(/^\[|\]$/g, ''));
  }

  allowsAddress(address: Address): boolean {
    const candidates = [address, ...(isMapped(address) ? [(address as ipaddr.IPv6).toIPv4Address()] : [])];
    return candidates.some((a) => this.ranges.some(([net, bits]) => net.kind() === a.kind() && a.match(net, bits)));
  }
}

function exact(address: Address): [Address, number] {
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

function isMapped(address: Address): boolean {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress();
}

/** Why the address may not be connected to (naming its range), or null when it may. */
export function refuseAddress(address: string | Address, allowlist: PushAllowlist): string | null {
  const parsed = typeof address === 'string' ? parseIpLiteral(address) : address;
  if (!parsed) return `${String(address)} is not an IP address`;
  if (allowlist.allowsAddress(parsed)) return null;
  const range = specialRange(parsed);
  return range ? `${parsed.toString()} is a ${range} address` : null;
}
