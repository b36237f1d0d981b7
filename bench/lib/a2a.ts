/**
 * The A2A requests every server gets, byte for byte the same: v1.0 JSON-RPC (native for the
 * SDK's handler and for Switchboard; next-floor answers the same shapes from memory).
 */
export const A2A_HEADERS = { 'content-type': 'application/json', 'A2A-Version': '1.0' };

/** `[<id>]` is replaced with a fresh id per request by bench/lib/load.ts. */
export function sendBody(text: string, messageId = '[<id>]'): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'SendMessage',
    params: { message: { messageId, role: 'ROLE_USER', parts: [{ text }] } },
  });
}

export function streamBody(text: string, messageId: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'SendStreamingMessage',
    params: { message: { messageId, role: 'ROLE_USER', parts: [{ text }] } },
  });
}

export function getTaskBody(taskId: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: taskId, historyLength: 0 } });
}

/** The chunk text every chunking agent produces (lib/agents/slow-agent.ts). */
export function chunkText(index: number, size: number): string {
  const head = `chunk ${String(index + 1).padStart(5, '0')} `;
  return (head + '.'.repeat(Math.max(0, size - head.length - 1))).slice(0, size - 1) + '\n';
}

export function expectedArtifact(chunks: number, size: number): string {
  let text = '';
  for (let i = 0; i < chunks; i++) text += chunkText(i, size);
  return text;
}

export async function postJson(url: string, body: string, headers: Record<string, string> = A2A_HEADERS): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method: 'POST', headers, body });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return (await res.json()) as Record<string, unknown>;
}
