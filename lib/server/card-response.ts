/**
 * The agent card response with the caching headers of v1.0 §8.6: `Cache-Control`, a strong
 * `ETag` (a hash of the card's bytes; `If-None-Match` gets 304), and `Last-Modified` (when this
 * process first served these exact bytes: a card changes when API keys appear or the config
 * does, and a new card gets a new time). `Vary: A2A-Version`, as the card's generation follows it;
 * a card reflecting the request's Host is private (see cachingFor).
 */
import { createHash } from 'node:crypto';
import { appPart } from '../process-singleton';

/** Distinct cards seen (agents × generations × key states × public URLs); bounded against odd Host headers. */
const MAX_REMEMBERED = 1_000;
const firstServed = () => appPart('cardFirstServed', () => new Map<string, string>());

function lastModified(etag: string): string {
  const seen = firstServed();
  let at = seen.get(etag);
  if (!at) {
    if (seen.size >= MAX_REMEMBERED) seen.clear();
    at = new Date(Math.floor(Date.now() / 1000) * 1000).toUTCString();
    seen.set(etag, at);
  }
  return at;
}

function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** How long a client may reuse a card without asking again (then If-None-Match revalidates it). */
export const CARD_MAX_AGE_SECONDS = 60;

/**
 * A card whose URLs come from SWITCHBOARD_PUBLIC_URL may be cached by anyone. One that reflects
 * the request's Host (`reflected`) is `private`: the caller's own cache may keep it as long (it
 * asked with that Host), but no shared cache stores it, since many key on the URL alone and
 * ignore Vary, and would hand one origin's card to another (decision 163).
 */
function cachingFor(reflected: boolean): Record<string, string> {
  if (!reflected) return { 'Cache-Control': `public, max-age=${CARD_MAX_AGE_SECONDS}`, Vary: 'A2A-Version' };
  return { 'Cache-Control': `private, max-age=${CARD_MAX_AGE_SECONDS}`, Vary: 'A2A-Version, Host, X-Forwarded-Host, X-Forwarded-Proto' };
}

export function cardResponse(req: Request, card: unknown, reflected: boolean): Response {
  const body = JSON.stringify(card);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
  const headers = {
    ...cachingFor(reflected),
    ETag: etag,
    'Last-Modified': lastModified(etag),
  };
  if (matches(req.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { headers: { ...headers, 'Content-Type': 'application/json' } });
}

declare module '../process-singleton' {
  interface AppParts {
    /** When each card was first served (Last-Modified). */
    cardFirstServed: Map<string, string>;
  }
}
