/**
 * Slow-client defence for the HTTP server `next start` created: a connection must
 * finish its request headers within SWITCHBOARD_HEADERS_TIMEOUT and its whole request within
 * SWITCHBOARD_REQUEST_TIMEOUT, or it is closed.
 *
 * `next start` offers no setting for these, and by the time instrumentation runs its server is
 * already listening, so the server is found among the process's active handles. Node's own
 * `headersTimeout` answers 408 to a client that started its headers but never finished them; it
 * does nothing about a connection that never sends a byte, so each new connection also gets a
 * socket timeout that its first complete request clears (a long-held answer, such as a blocking
 * send or a stream, is never cut by it). The same server also stamps each request with its
 * socket's address (remote-address.ts).
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { getSettings } from '../config/settings';
import { log } from '../log';
import { stampRemoteAddress } from '../auth/remote-address';

const APPLIED = Symbol.for('switchboard.server-timeouts');

type TimedServer = http.Server & { [APPLIED]?: true };

/** The HTTP servers this process listens with (`next start`'s, found among the active handles). */
export function listeningHttpServers(): TimedServer[] {
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.() ?? [];
  return handles.filter((h): h is TimedServer => h instanceof http.Server);
}

export function applyTimeouts(server: TimedServer, headersTimeoutMs: number, requestTimeoutMs: number): void {
  if (server[APPLIED]) return;
  server[APPLIED] = true;
  server.headersTimeout = headersTimeoutMs;
  server.requestTimeout = requestTimeoutMs;
  server.on('connection', (socket: Socket) => {
    socket.setTimeout(headersTimeoutMs, () => socket.destroy());
  });
  server.on('request', (req: http.IncomingMessage) => req.socket.setTimeout(0));
  stampRemoteAddress(server); // the same server, found once: the audit log's "from where"
}

/** Applies the configured timeouts to every HTTP server of this process; returns how many. */
export function applyServerTimeouts(): number {
  const { headersTimeoutMs, requestTimeoutMs } = getSettings();
  const servers = listeningHttpServers();
  for (const server of servers) applyTimeouts(server, headersTimeoutMs, requestTimeoutMs);
  if (servers.length === 0) log.warn('no HTTP server found to apply SWITCHBOARD_HEADERS_TIMEOUT / SWITCHBOARD_REQUEST_TIMEOUT to');
  return servers.length;
}
