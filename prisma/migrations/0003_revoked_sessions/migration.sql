-- Logged-out dashboard sessions, kept until they would have expired anyway, so a logout
-- survives a restart (issue 11 §5).
CREATE TABLE "RevokedSession" (
    "nonce" TEXT NOT NULL PRIMARY KEY,
    "expiresAt" DATETIME NOT NULL
);

CREATE INDEX "RevokedSession_expiresAt_idx" ON "RevokedSession"("expiresAt");
