-- PostgreSQL twin of prisma/migrations/0004_outbound_guard.
-- Issue 11 §4: origins other than the peer URL's own that may receive its credentials
-- (JSON array of origins; NULL = only the URL's own origin).
ALTER TABLE "Peer" ADD COLUMN "credentialOrigins" TEXT;
