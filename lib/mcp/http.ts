/**
 * POST /mcp: MCP over Streamable HTTP, stateless (each request its own server and transport,
 * so any instance answers any request and nothing is kept between calls). It goes through the
 * /api route wrapper: the same Host check in open mode, Origin check, bearer tokens, roles,
 * login throttle and JSON errors as the dashboard API. GET (a server-initiated stream) and
 * DELETE (end a session) have no meaning without sessions: 405, as the transport spec allows.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { apiRoute } from '../api/route';
import { getSettings } from '../config/settings';
import { buildMcpServer } from './server';

export const handleMcpPost = apiRoute({ role: 'viewer' }, async ({ req, caller }) => {
  const server = buildMcpServer(caller!);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, maxRequestBodySize: getSettings().maxApiBodyBytes });
  await server.connect(transport);
  return transport.handleRequest(req);
});

export function mcpMethodNotAllowed(): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; use POST /mcp' }, id: null },
    { status: 405, headers: { Allow: 'POST' } },
  );
}
