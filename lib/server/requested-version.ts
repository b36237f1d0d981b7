/**
 * The A2A-Version a request asks for (v1.0 §3.6): the `A2A-Version` header, else the
 * `A2A-Version` query parameter; null when neither is given (which means 0.3).
 */
export function requestedVersion(req: Request): string | null {
  const header = req.headers.get('a2a-version');
  if (header !== null && header.trim() !== '') return header.trim();
  const query = new URL(req.url).searchParams.get('A2A-Version');
  return query !== null && query.trim() !== '' ? query.trim() : null;
}

/** Whether a requested version names the 1.x generation. */
export const isV1 = (version: string | null): boolean => version !== null && /^1(\.|$)/.test(version);

/** The bindings that serve only v1.0 (HTTP+JSON, gRPC) accept no version (read as 1.0) or 1.x. */
export const acceptsV1Only = (version: string | null): boolean => version === null || /^1(\.0(\.\d+)?)?$/.test(version);
