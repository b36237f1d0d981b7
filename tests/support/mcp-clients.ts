/**
 * Real MCP clients (the official @modelcontextprotocol/sdk Client) for the MCP tests: over
 * Streamable HTTP to a running app's /mcp, and over stdio to `node bin/switchboard.mjs mcp`.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

export async function httpMcpClient(appUrl: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'switchboard-test', version: '1.0.0' });
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${appUrl}/mcp`), { requestInit: { headers } }));
  return client;
}

export async function stdioMcpClient(appUrl: string, token?: string): Promise<{ client: Client; stderr: () => string }> {
  const client = new Client({ name: 'switchboard-test-stdio', version: '1.0.0' });
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SWITCHBOARD_URL: appUrl, ...(token ? { SWITCHBOARD_TOKEN: token } : {}) };
  const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(ROOT, 'bin/switchboard.mjs'), 'mcp'], env, cwd: ROOT, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  await client.connect(transport);
  return { client, stderr: () => err };
}

/** What the task tools answer (lib/mcp/task-view.ts). */
export interface TaskViewResult {
  taskId: string;
  state: string;
  done: boolean;
  needsInput: boolean;
  statusMessage: string | null;
  endReason: string | null;
  output: string;
  outputChars: number;
  moreOutput: boolean;
  cursor: string;
  next: string;
}

export const structuredOf = <T>(result: unknown): T => (result as CallToolResult).structuredContent as T;
export const textOf = (result: unknown): string => ((result as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('');
