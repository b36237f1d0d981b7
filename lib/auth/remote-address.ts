/**
 * The remote address of a request as this server saw it: the login throttle's source (decision
 * 170) and the audit log's "from where" (decision 232).
 * `next start` hands route handlers a Request without the socket, and fills X-Forwarded-For from
 * the socket only when the request has none, so a caller can write that header itself. The
 * server's own listener therefore stamps every request with the socket's address in a header of
 * its own (replacing any value a caller sent) before Next.js sees it. With SWITCHBOARD_TRUST_PROXY
 * set (a reverse proxy in front that appends the address it saw), the last X-Forwarded-For entry
 * is that proxy's word and is used instead.
 */
import type http from 'node:http';
import { getSettings } from '../config/settings';
import type { HeaderSource } from './web-origin';

export const REMOTE_ADDRESS_HEADER = 'x-switchboard-remote-address';
const MAX_ADDRESS_CHARS = 64;

/** Installed first on the server, so the stamp is in place before Next.js reads the headers. */
export function stampRemoteAddress(server: http.Server): void {
  server.prependListener('request', (req: http.IncomingMessage) => {
    req.headers[REMOTE_ADDRESS_HEADER] = req.socket.remoteAddress ?? '';
  });
}

export function remoteAddressOf(headers: HeaderSource, trustProxy = getSettings().trustProxy): string | null {
  const raw = trustProxy ? (headers.get('x-forwarded-for') ?? '').split(',').pop() : headers.get(REMOTE_ADDRESS_HEADER);
  return raw?.trim().slice(0, MAX_ADDRESS_CHARS) || null;
}
