/**
 * `switchboard mcp`: the MCP server on stdio, for agents that launch their tools as commands.
 * It is a bridge to the running Switchboard's own MCP endpoint (POST /mcp with
 * SWITCHBOARD_TOKEN), not a second server: tools/list and tools/call go through unchanged, so
 * the tool definitions exist once (lib/mcp), the token's role picks the tools there, and what a
 * call does is recorded and shown live like any dispatch. Progress notifications are passed
 * back under the stdio client's own progress token.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CliError, headersFor, unreachable, type ApiTarget } from './api';
import { EXIT } from './exit-codes';

/** Longer than the longest call the server holds (50 s), so the server ends a wait, not us. */
const CALL_TIMEOUT_MS = 90_000;

function connectError(target: ApiTarget, err: unknown): CliError {
  if (err instanceof StreamableHTTPError && (err.code === 401 || err.code === 403)) {
    const hint = target.token ? 'SWITCHBOARD_TOKEN was refused' : 'this Switchboard needs a token: set SWITCHBOARD_TOKEN';
    return new CliError(`${hint} (${err.code}); use the operator or viewer token the server was started with`, EXIT.auth, 'unauthenticated');
  }
  if (err instanceof StreamableHTTPError) return new CliError(`${target.baseUrl}/mcp refused the MCP connection: ${err.message}`, EXIT.error, 'mcp_refused');
  return unreachable(target, err);
}

/** Connects to the Switchboard's /mcp; refusals become CliErrors with the CLI's exit codes. */
async function connectUpstream(target: ApiTarget): Promise<Client> {
  const client = new Client({ name: 'switchboard-mcp-stdio', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${target.baseUrl}/mcp`), { requestInit: { headers: headersFor(target) } });
  try {
    await client.connect(transport);
  } catch (err) {
    throw connectError(target, err);
  }
  return client;
}

function bridgeServer(upstream: Client): Server {
  const info = upstream.getServerVersion() ?? { name: 'switchboard', version: '1.0.0' };
  const server = new Server(info, { capabilities: { tools: {} }, instructions: upstream.getInstructions() });
  server.setRequestHandler(ListToolsRequestSchema, (req) => upstream.listTools(req.params));
  server.setRequestHandler(CallToolRequestSchema, (req, extra) => {
    const token = req.params._meta?.progressToken;
    const { _meta, ...params } = req.params;
    void _meta;
    const onprogress =
      token === undefined
        ? undefined
        : (p: { progress: number; total?: number; message?: string }) => void extra.sendNotification({ method: 'notifications/progress', params: { ...p, progressToken: token } }).catch(() => undefined);
    return upstream.callTool(params, undefined, { timeout: CALL_TIMEOUT_MS, signal: extra.signal, onprogress, resetTimeoutOnProgress: true });
  });
  return server;
}

/** Serves MCP on stdin/stdout until the client closes stdin. */
export async function serveMcpOverStdio(target: ApiTarget): Promise<void> {
  const upstream = await connectUpstream(target);
  const server = bridgeServer(upstream);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  await server.connect(new StdioServerTransport());
  process.stdin.once('end', () => void server.close());
  await closed;
  await upstream.close();
}
