/**
 * The Switchboard MCP server (docs/mcp.md): one McpServer per HTTP request (stateless Streamable
 * HTTP), with the tools the caller's role allows. A viewer gets the read tools only, so the
 * tools a viewer could not use are not even listed; an operator gets every tool.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Caller } from '../auth/guard';
import type { AuditActor } from '../audit/audit-log';
import { roleAllows } from '../auth/roles';
import { registerReadTools } from './read-tools';
import { registerWriteTools } from './write-tools';

export const MCP_SERVER_INFO = { name: 'switchboard', version: '1.0.0' };

const INSTRUCTIONS =
  'Switchboard runs tasks on A2A agents and keeps every result. dispatch returns a task id at once or within wait_seconds; ' +
  'a task still running is never lost: call wait with its taskId and the cursor from the last result until done, ' +
  'reply when it needs input, get_result to page a long result. Never dispatch the same work again because a call returned early.';

/** `actor`: how the audit log names this caller's write tool calls. */
export function buildMcpServer(caller: Caller, actor: AuditActor): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  registerReadTools(server);
  if (roleAllows(caller.role, 'operator')) registerWriteTools(server, actor);
  return server;
}
