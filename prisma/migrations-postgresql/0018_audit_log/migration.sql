-- PostgreSQL twin of prisma/migrations/0018_audit_log.
-- The operator audit log (issue 27, docs/decisions.md 232): one row per operator action
-- (dispatch, reply, cancel, peer create/change/delete, API key create/revoke) with who, from
-- where, what and the outcome; never a secret. Pruned after SWITCHBOARD_AUDIT_RETENTION.
CREATE TABLE "AuditEntry" (
    "id" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "action" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "via" TEXT NOT NULL,
    "door" TEXT NOT NULL,
    "address" TEXT,
    "target" TEXT,
    "detail" TEXT,
    "outcome" TEXT NOT NULL,
    "error" TEXT,

    CONSTRAINT "AuditEntry_pkey" PRIMARY KEY ("id")
);

-- Newest first, paged by (at, id); the pruner deletes from the oldest end.
CREATE INDEX "AuditEntry_at_id_idx" ON "AuditEntry"("at", "id");
