/**
 * URL normalisation for peer matching: a direct URL that names a configured
 * peer must find it even when typed differently. Pure; no server imports.
 */

const CARD_SUFFIXES = ['/.well-known/agent-card.json', '/.well-known/agent.json'];

/**
 * Lowercase scheme and host, drop the default port (80 for http, 443 for https), drop the
 * fragment and any trailing slash. The query is kept: it can select a tenant. Throws on a
 * string that is not an absolute http(s) URL.
 */
export function normalizeUrl(input: string): string {
  const url = new URL(input.trim());
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`not an http(s) URL: ${input}`);
  // WHATWG URL already lowercases scheme and host and drops default ports; say it anyway so
  // the rule does not depend on that detail.
  const port = url.port && !((url.protocol === 'http:' && url.port === '80') || (url.protocol === 'https:' && url.port === '443')) ? `:${url.port}` : '';
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol.toLowerCase()}//${url.hostname.toLowerCase()}${port}${path}${url.search}`;
}

/** The normalised URL with a trailing agent-card path removed (a pasted card URL finds its peer). */
export function normalizeAgentUrl(input: string): string {
  const normalized = normalizeUrl(input);
  const suffix = CARD_SUFFIXES.find((s) => new URL(normalized).pathname.endsWith(s));
  if (!suffix) return normalized;
  const url = new URL(normalized);
  url.pathname = url.pathname.slice(0, -suffix.length) || '/';
  return normalizeUrl(url.toString());
}

/**
 * A URL that names a card itself: the standard card paths, and any other `.json` path or path
 * under `/.well-known/` (VoltAgent serves `/.well-known/<agent>/agent-card.json`). Such a URL is
 * fetched as the card; nothing is appended to it and nothing is POSTed to it.
 */
export function isCardUrl(input: string): boolean {
  const path = new URL(input).pathname.replace(/\/+$/, '');
  return CARD_SUFFIXES.some((s) => path.endsWith(s)) || path.includes('/.well-known/') || path.endsWith('.json');
}

export function isHttpUrl(input: string): boolean {
  try {
    normalizeUrl(input);
    return true;
  } catch {
    return false;
  }
}
