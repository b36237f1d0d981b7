-- PostgreSQL twin of prisma/migrations/0017_peer_oauth2.
-- A peer's OAuth2 client-credentials settings (JSON {clientId, tokenUrl?, scopes?, authMethod,
-- audience?, resource?}, docs/decisions.md 224): the hub gets an access token for the peer from
-- its token endpoint. The client secret is kept sealed in "authSecret", never here.
ALTER TABLE "Peer" ADD COLUMN "oauth2" TEXT;
