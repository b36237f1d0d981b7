/**
 * Runs before Next.js routes a request, only for paths that contain a `%` (see the matcher):
 * malformed percent-encoding gets a precise 400 here, where Next.js itself answered a bare 500
 * (issue 27 §1, decision 171). Nothing else is done here, so other requests pay nothing.
 */
import { malformedPathResponse } from './lib/api/malformed-path';
import { wellEncodedPath } from './lib/util/path-encoding';

export function proxy(req: Request): Response | undefined {
  const { pathname } = new URL(req.url);
  return wellEncodedPath(pathname) ? undefined : malformedPathResponse(pathname);
}

export const config = {
  matcher: ['/(.*%.*)'],
};
