/** SSE framing for A2A streams: each `data:` line is one JSON-RPC response (a2a-protocol.md §5). */
export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

export const KEEPALIVE_MS = 15_000;

export function sseData(payload: unknown, id?: number | string): string {
  return `${id !== undefined ? `id: ${id}\n` : ''}data: ${JSON.stringify(payload)}\n\n`;
}

export function sseErrorEvent(payload: unknown): string {
  return `event: error\ndata: ${JSON.stringify(payload)}\n\n`;
}

export const SSE_KEEPALIVE = ': keepalive\n\n';
