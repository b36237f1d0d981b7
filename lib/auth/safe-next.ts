/**
 * Where the login page may send the browser afterwards: a path on this origin, nothing else.
 * Browsers read `/\evil.example`, `/%09/evil.example` (a tab they drop) or `/.//evil` as
 * another origin, so the value is resolved the way a browser would and must stay on ours.
 */
const BASE = 'http://switchboard.invalid';

export function safeNextPath(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.length > 2048) return '/';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return '/';
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return '/';
  }
  if (url.origin !== BASE || url.pathname.startsWith('//')) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}
