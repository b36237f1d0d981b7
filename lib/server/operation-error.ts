import { A2AError } from '../protocol/errors';
import { errorMessage, log } from '../log';

/** An operation's failure as an A2A error; anything unexpected is logged and becomes -32603. */
export function asA2AError(err: unknown, context: Record<string, unknown>): A2AError {
  if (err instanceof A2AError) return err;
  log.error('A2A operation failed', { ...context, error: errorMessage(err), stack: err instanceof Error ? err.stack : undefined });
  return new A2AError('internal');
}
