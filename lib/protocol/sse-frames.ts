/**
 * Server-sent events framing: the one module for it, used by the A2A streams (each `data:` line
 * is one JSON-RPC response, the A2A specification) and by the dashboard's streams.
 */
export const SSE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/**
 * A comment line this often keeps proxies from closing an idle stream, finds dead ones, and
 * keeps clients with short read timeouts from taking a quiet task for a dead stream
 * (Hermes's client cuts a silent stream at 3 s, a2a-python's httpx default at 5 s). The one
 * interval for every stream, A2A and dashboard; SWITCHBOARD_SSE_KEEPALIVE may lower it (tests),
 * never raise it past KEEPALIVE_MAX_MS.
 */
export const KEEPALIVE_MS = 2_000;
export const KEEPALIVE_MAX_MS = 4_000;
export const SSE_KEEPALIVE = ': keepalive\n\n';

export interface SseFrame {
  event?: string;
  id?: number | string;
  data: unknown;
}

/** One SSE frame. JSON.stringify never emits a raw newline, so `data:` stays one line. */
export function encodeFrame(frame: SseFrame): string {
  const id = frame.id !== undefined ? `id: ${frame.id}\n` : '';
  const event = frame.event ? `event: ${frame.event}\n` : '';
  return `${id}${event}data: ${JSON.stringify(frame.data)}\n\n`;
}

/** An A2A stream frame: one JSON-RPC response. */
export const sseData = (payload: unknown, id?: number | string): string => encodeFrame({ id, data: payload });

/** An A2A stream's error frame (a JSON-RPC error response). */
export const sseErrorEvent = (payload: unknown): string => encodeFrame({ event: 'error', data: payload });
