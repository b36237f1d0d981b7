import { getSettings } from '../config/settings';

/** The URL peers should use to reach us: SWITCHBOARD_PUBLIC_URL, else the request's own origin. */
export function publicBaseUrl(req: Request): string {
  const configured = getSettings().publicUrl;
  if (configured) return configured;
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host');
  const proto = req.headers.get('x-forwarded-proto') ?? new URL(req.url).protocol.replace(':', '');
  return host ? `${proto}://${host}` : new URL(req.url).origin;
}

/** This server's own address without a request: SWITCHBOARD_PUBLIC_URL, else http://HOST:PORT. */
export function ownBaseUrl(): string {
  const s = getSettings();
  if (s.publicUrl) return s.publicUrl;
  const wildcard = s.host === '0.0.0.0' || s.host === '::';
  const host = wildcard ? '127.0.0.1' : s.host.includes(':') && !s.host.startsWith('[') ? `[${s.host}]` : s.host;
  return `http://${host}:${s.port}`;
}
