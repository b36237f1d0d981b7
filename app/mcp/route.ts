// /mcp — the MCP server over Streamable HTTP (lib/mcp, docs/mcp.md). Viewer role for the read
// tools, operator for all; POST only (stateless).
import { handleMcpPost, mcpMethodNotAllowed } from '@/lib/mcp/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handleMcpPost;
export const GET = mcpMethodNotAllowed;
export const DELETE = mcpMethodNotAllowed;
