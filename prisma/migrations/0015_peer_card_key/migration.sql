-- A peer's card key pin (JSON {jwksUrl} | {jwk}, docs/decisions.md 200): when set, the peer's
-- agent card must carry a signature that verifies with it, or the dispatch is refused.
ALTER TABLE "Peer" ADD COLUMN "cardKey" TEXT;
