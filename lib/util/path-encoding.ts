/**
 * Paths with malformed percent-encoding (`%zz`, a truncated `%E0%A4%A`) are the caller's
 * mistake: Next.js itself answered them with a bare 500 before any route ran.
 * proxy.ts refuses them (lib/api/malformed-path.ts); route code decodes with safeDecode.
 */

/** decodeURIComponent, or null where it would throw. */
export function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** True when every `%` in the path starts a valid escape and the bytes decode as UTF-8. */
export function wellEncodedPath(pathname: string): boolean {
  return !pathname.includes('%') || pathname.split('/').every((segment) => safeDecode(segment) !== null);
}
