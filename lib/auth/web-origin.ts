/**
 * Where a request comes from, as far as the headers tell: which Host it named,
 * which page (Origin, Sec-Fetch-Site) sent it, and which origin we answer as. One home for
 * these rules, used by the dashboard guard and the A2A surface alike.
 *
 * X-Forwarded-* are client-controlled unless a proxy we trust overwrites them (Next.js itself
 * fills X-Forwarded-Host from Host when it is missing), so they count only with
 * SWITCHBOARD_TRUST_PROXY.
 */
import { getSettings, isLoopbackHost, type Settings } from '../config/settings';

/** What identification needs from a request; `next/headers` headers() satisfies it too. */
export interface HeaderSource {
  get(name: string): string | null;
}

/** `host[:port]` with a DNS name, IPv4 or bracketed IPv6; anything else is not a Host we answer as. */
const HOST_HEADER = /^(?:[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i;

export function hostName(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1);
  return hostHeader.split(':')[0];
}

export function publicHost(settings: Settings = getSettings()): string | null {
  try {
    return settings.publicUrl ? new URL(settings.publicUrl).host : null;
  } catch {
    return null;
  }
}

const firstValue = (value: string | null): string | null => value?.split(',')[0].trim() || null;

/**
 * A Host an open (no-credential) hub may answer: loopback, or the configured public URL's host.
 * Anything else is a DNS-rebinding page speaking to us through the operator's browser.
 */
export function trustedOpenHost(headers: HeaderSource, settings: Settings = getSettings()): boolean {
  const host = headers.get('host');
  if (!host) return true; // HTTP/1.0 style clients; a browser always sends Host
  return isLoopbackHost(hostName(host)) || host.toLowerCase() === publicHost(settings)?.toLowerCase();
}

/** The host an Origin header names (null for a missing, `null` or unparsable Origin). */
function originHost(origin: string | null): string | null {
  if (!origin || origin === 'null') return null;
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/** Whether an Origin header names this server (its Host, or the public URL). */
export function originIsOurs(origin: string, headers: HeaderSource, settings: Settings = getSettings()): boolean {
  const host = originHost(origin);
  return host !== null && (host === headers.get('host') || host === publicHost(settings));
}

/**
 * A request a web page sent from another site: a foreign Origin, or `Sec-Fetch-Site:
 * cross-site`. Programs (A2A clients, curl) send neither.
 */
export function fromForeignPage(headers: HeaderSource, settings: Settings = getSettings()): boolean {
  const origin = headers.get('origin');
  if (origin !== null && !originIsOurs(origin, headers, settings)) return true;
  return headers.get('sec-fetch-site')?.toLowerCase() === 'cross-site';
}

export interface RequestOrigin {
  /** `scheme://host[:port]` peers should use for us. */
  url: string;
  /** True when it came from the request's headers rather than SWITCHBOARD_PUBLIC_URL. */
  reflected: boolean;
}

/**
 * The origin we answer as: SWITCHBOARD_PUBLIC_URL when set; else X-Forwarded-Host/-Proto behind
 * a trusted proxy; else the Host header over plain HTTP (`next start` does not terminate TLS).
 */
export function requestOrigin(headers: HeaderSource, fallbackHost: string, settings: Settings = getSettings()): RequestOrigin {
  if (settings.publicUrl) return { url: settings.publicUrl, reflected: false };
  const forwardedHost = settings.trustProxy ? firstValue(headers.get('x-forwarded-host')) : null;
  const forwardedProto = settings.trustProxy ? firstValue(headers.get('x-forwarded-proto')) : null;
  const candidate = forwardedHost ?? headers.get('host') ?? '';
  const host = HOST_HEADER.test(candidate) ? candidate : fallbackHost;
  const proto = forwardedProto === 'https' ? 'https' : 'http';
  return { url: `${proto}://${host}`, reflected: true };
}
