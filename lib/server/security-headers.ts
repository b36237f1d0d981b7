/**
 * The headers next.config.mjs puts on every answer (listed once in security-headers.json), for
 * the answers given before Next (health-first.ts, a2a-first.ts): those skip Next, not these.
 */
import LISTED from './security-headers.json';

export const SECURITY_HEADERS: Readonly<Record<string, string>> = { 'Content-Security-Policy': LISTED.contentSecurityPolicy.join('; '), ...LISTED.headers };
