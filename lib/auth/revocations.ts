/**
 * Logout that survives a restart: each revoked session is written to the database
 * (RevokedSession) as well as kept in the process's copy that verifySession reads, and the
 * live ones are loaded back at boot.
 */
import { insertRevokedSession, liveRevokedSessions } from '../db/session-repo';
import { revokeSession, type SessionClaim } from './session';

export async function logOutSession(claim: SessionClaim): Promise<void> {
  revokeSession(claim);
  await insertRevokedSession(claim.nonce, new Date(claim.expiresAt));
}

/** Boot hook: the sessions logged out before this process started stay logged out. */
export async function loadRevokedSessions(): Promise<void> {
  for (const r of await liveRevokedSessions()) revokeSession({ nonce: r.nonce, expiresAt: r.expiresAt.getTime() });
}
