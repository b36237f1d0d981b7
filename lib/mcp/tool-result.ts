/** How a tool answers: structured content plus the same facts as text, or a refusal in words. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { A2AError } from '../protocol/errors';
import { ClientError } from '../protocol/client-error';
import { errorMessage, log } from '../log';
import { UnknownTaskError } from './task-wait';

export function structured<T extends Record<string, unknown>>(value: T, text: string): CallToolResult & { structuredContent: T } {
  return { content: [{ type: 'text', text }], structuredContent: value };
}

/** A refusal the model can act on (isError: true, the message names the argument). */
export function refused(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Known refusals of the layers below as tool errors; anything else is logged, not shown. */
export function toolFailure(tool: string, err: unknown): CallToolResult {
  if (err instanceof ClientError) return refused(err.field && !err.message.startsWith(`${err.field}:`) ? `${err.field}: ${err.message}` : err.message);
  if (err instanceof UnknownTaskError) return refused(err.message);
  if (err instanceof A2AError) return refused(err.message);
  log.error('MCP tool failed', { tool, error: errorMessage(err), stack: err instanceof Error ? err.stack : undefined });
  return refused(`${tool} failed on the server; see the Switchboard log`);
}

/** Runs a tool's work and answers with its result, or with its failure as toolFailure says. */
export async function answering(tool: string, work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (err) {
    return toolFailure(tool, err);
  }
}
