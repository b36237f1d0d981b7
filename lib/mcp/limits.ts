/** The MCP tools' bounds (docs/mcp.md): short enough for common clients' request timeouts. */
import { z } from 'zod';

/** Longest a call holds (dispatch's wait_seconds, wait's seconds): under a 60 s client timeout. */
export const MAX_WAIT_SECONDS = 50;
export const DEFAULT_WAIT_SECONDS = 20;
/** Result text per call; get_result pages the rest. */
export const MAX_OUTPUT_CHARS = 16_000;
export const MAX_TEXT_CHARS = 100_000;

export const SecondsSchema = (what: string) =>
  z
    .number()
    .min(0, `${what}: at least 0`)
    .max(MAX_WAIT_SECONDS, `${what}: at most ${MAX_WAIT_SECONDS} seconds; call wait again to keep following`)
    .optional()
    .describe(`seconds to wait (0-${MAX_WAIT_SECONDS}, default ${DEFAULT_WAIT_SECONDS})`);

export const TaskIdSchema = z
  .string()
  .min(1, 'taskId: expected a task id')
  .max(128, 'taskId: at most 128 characters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'taskId: expected a task id as dispatch returned it')
  .describe('the task id dispatch returned');
