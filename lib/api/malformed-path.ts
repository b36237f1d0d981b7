/**
 * The answer to a path with malformed percent-encoding (lib/util/path-encoding.ts), given by
 * proxy.ts before Next.js routes it: an A2A path gets the HTTP+JSON binding's error shape
 * (AIP-193), everything else the /api shape. Neither echoes the path (it is the caller's bytes).
 */
import { A2AError, toRestError } from '../protocol/errors';
import { apiError } from './responses';

const MESSAGE = 'path: malformed percent-encoding';

export function malformedPathResponse(pathname: string): Response {
  if (pathname === '/a2a' || pathname.startsWith('/a2a/')) return Response.json(toRestError(new A2AError('invalidRequest', MESSAGE)), { status: 400 });
  return apiError(400, 'invalid_path', MESSAGE, 'path');
}
