-- PostgreSQL twin of prisma/migrations/0014_message_id_index.
-- Idempotent sends (docs/decisions.md 166): a send repeated with a messageId already recorded
-- for the same caller and agent answers with the task it created; this index finds it.
CREATE INDEX "Message_messageId_idx" ON "Message"("messageId");
