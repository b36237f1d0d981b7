/**
 * Delegation tokens: a launched agent gets one for its own task (SWITCHBOARD_DISPATCH_TOKEN) and
 * may use it for exactly one thing: POST /api/dispatch, where the new task is recorded as a child
 * of that task. `sbd1.<taskId>.<expiresAtMs>.<hmac>`, keyed by a key derived from the cluster's
 * secret key (SWITCHBOARD_SECRET_KEY, or the key file on SQLite): the dispatch URL is the load
 * balancer's, so any instance of a PostgreSQL cluster must verify what another issued.
 * During a key rotation a token signed with SWITCHBOARD_SECRET_KEY_PREVIOUS still verifies.
 * It expires after the task's window plus grace, and is refused once the task has ended.
 */
import { createHmac } from 'node:crypto';
import { derivedKeys } from '../db/secret-box';
import { safeEqual } from './session';

const PREFIX = 'sbd1';

const keys = () => derivedKeys('delegation tokens v1');

function sign(taskId: string, expiresAt: number, key = keys()[0]): string {
  return createHmac('sha256', key).update(`${PREFIX}.${taskId}.${expiresAt}`).digest('base64url');
}

export function issueDispatchToken(taskId: string, ttlMs: number, now = Date.now()): string {
  const expiresAt = now + ttlMs;
  return `${PREFIX}.${taskId}.${expiresAt}.${sign(taskId, expiresAt)}`;
}

export const isDispatchToken = (token: string) => token.startsWith(`${PREFIX}.`);

/** The task the token was issued for, or null when it is forged, malformed or expired. */
export function verifyDispatchToken(token: string, now = Date.now()): string | null {
  const [prefix, taskId, expires, signature, extra] = token.split('.');
  if (prefix !== PREFIX || !taskId || !expires || !signature || extra !== undefined) return null;
  const expiresAt = Number(expires);
  if (!Number.isSafeInteger(expiresAt) || expiresAt < now) return null;
  return keys().some((key) => safeEqual(signature, sign(taskId, expiresAt, key))) ? taskId : null;
}
