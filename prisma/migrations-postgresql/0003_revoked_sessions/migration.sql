-- PostgreSQL twin of prisma/migrations/0003_revoked_sessions.
-- Logged-out dashboard sessions, kept until they would have expired anyway, so a logout
-- survives a restart (issue 11 §5).
CREATE TABLE "RevokedSession" (
    "nonce" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RevokedSession_pkey" PRIMARY KEY ("nonce")
);

CREATE INDEX "RevokedSession_expiresAt_idx" ON "RevokedSession"("expiresAt");
