import { getSettings } from '../config/settings';

/** This server's own address without a request: SWITCHBOARD_PUBLIC_URL, else http://HOST:PORT. */
export function ownBaseUrl(): string {
  const s = getSettings();
  if (s.publicUrl) return s.publicUrl;
  const wildcard = s.host === '0.0.0.0' || s.host === '::';
  const host = wildcard ? '127.0.0.1' : s.host.includes(':') && !s.host.startsWith('[') ? `[${s.host}]` : s.host;
  return `http://${host}:${s.port}`;
}
