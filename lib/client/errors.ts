/**
 * Errors lib/client raises for its HTTP callers (peers and dispatch routes): an HTTP status, a
 * stable code and a message naming the field, rendered with the REST error shape.
 */
import { apiError } from '../api/responses';
import { log, errorMessage } from '../log';
import { TimeoutOverrideError } from './timeouts';

export class ClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Maps a thrown error to a REST response; anything unexpected is a logged 500. */
export function clientErrorResponse(err: unknown): Response {
  if (err instanceof ClientError) return apiError(err.status, err.code, err.message, err.field);
  if (err instanceof TimeoutOverrideError) return apiError(400, 'invalid_request', err.message, err.field);
  log.error('client API error', { error: errorMessage(err) });
  return apiError(500, 'internal', 'internal error; see the server log');
}
