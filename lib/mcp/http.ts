/**
 * POST /mcp: MCP over Streamable HTTP, stateless (each request its own server and transport,
 * so any instance answers any request and nothing is kept between calls). It goes through the
 * /api route wrapper: the same Host check in open mode, Origin check, bearer tokens, roles,
 * login throttle and JSON errors as the dashboard API. GET (a server-initiated stream) and
 * DELETE (end a session) have no meaning without sessions: 405, as the transport spec allows.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { z } from 'zod';
import { apiRoute, readJsonBody } from '../api/route';
import { getSettings } from '../config/settings';
import { buildMcpServer } from './server';
import { requestActor } from '../api/audit-actor';

const isJson = (req: Request) => /^application\/json\b/i.test(req.headers.get('content-type') ?? '');

export const handleMcpPost = apiRoute({ role: 'viewer' }, async ({ req, caller }) => {
  const limit = getSettings().maxApiBodyBytes;
  // The /api body rules (byte limit: 413, nesting limit: 400) before the SDK parses anything;
  // a body that is not JSON is left to the transport, which answers 415 as the spec says.
  let parsedBody: unknown;
  if (isJson(req)) {
    const read = await readJsonBody(req, z.unknown(), limit);
    if ('response' in read) return read.response;
    parsedBody = read.data;
  }
  const server = buildMcpServer(caller!, requestActor(req, caller!, 'mcp'));
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, maxRequestBodySize: limit });
  await server.connect(transport);
  // A client that goes away ends its call: closing the transport aborts the tool's signal, so a
  // wait in progress lets go of its hub subscription at once instead of at its time limit.
  req.signal.addEventListener('abort', () => void transport.close(), { once: true });
  return transport.handleRequest(req, parsedBody === undefined ? undefined : { parsedBody });
});

export function mcpMethodNotAllowed(): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; use POST /mcp' }, id: null },
    { status: 405, headers: { Allow: 'POST' } },
  );
}
