/**
 * The built-in `self` peer calls this process's own A2A endpoint over HTTP. When inbound API
 * keys exist it still has to get in, without an operator minting a key for it: it presents a
 * random per-process token that never leaves the process (not stored, not logged, not shown).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { appPart } from '../process-singleton';

export const SELF_TOKEN_HEADER = 'X-Switchboard-Self';

export function selfToken(): string {
  return appPart('selfToken', () => randomBytes(32).toString('base64url'));
}

export function isSelfToken(presented: string | null): boolean {
  if (!presented) return false;
  const expected = Buffer.from(selfToken());
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

declare module '../process-singleton' {
  interface AppParts {
    /** The hub's token for calls to itself. */
    selfToken: string;
  }
}
