/**
 * The one API error type: a refusal the caller can act on, with an HTTP status, a stable code
 * and a message naming the field. The server's layers throw it (lib/api/route.ts renders it in
 * the REST error shape, lib/mcp/tool-result.ts as a tool refusal) and the browser's API client
 * raises it from such an answer (lib/query/api-client.ts), so forms show it at its field.
 * Client-safe: no imports.
 */
export class ClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ClientError';
  }
}
