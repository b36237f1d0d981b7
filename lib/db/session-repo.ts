/** Logged-out dashboard sessions (by cookie nonce), kept until the cookie would have expired. */
import { db } from './client';

export async function insertRevokedSession(nonce: string, expiresAt: Date): Promise<void> {
  await db().revokedSession.upsert({ where: { nonce }, create: { nonce, expiresAt }, update: {} });
}

/** Drops revocations whose cookies have expired, and returns the rest. */
export async function liveRevokedSessions(now = new Date()): Promise<{ nonce: string; expiresAt: Date }[]> {
  await db().revokedSession.deleteMany({ where: { expiresAt: { lte: now } } });
  return db().revokedSession.findMany({ select: { nonce: true, expiresAt: true } });
}
