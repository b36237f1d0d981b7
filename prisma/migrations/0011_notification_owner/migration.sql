-- Operator notifications as owned work, like push deliveries (issue 15): "owner" is the instance
-- that sends the row, written in the change's transaction; its lease is that instance's row in
-- "_switchboard_instances" (PostgreSQL), and a survivor takes the row over once that row is gone
-- (lib/db/pg-leases.ts). "attemptStartedAt" is set while an attempt is in flight: set on a row
-- taken over, the outcome of that attempt is unknown and it is sent again, same id.
-- Rows written before this migration have no owner: on PostgreSQL the first takeover claims them.
ALTER TABLE "NotificationDelivery" ADD COLUMN "owner" TEXT;
ALTER TABLE "NotificationDelivery" ADD COLUMN "attemptStartedAt" DATETIME;
CREATE INDEX "NotificationDelivery_state_owner_idx" ON "NotificationDelivery"("state", "owner");

-- Finished rows are pruned after SWITCHBOARD_OUTBOX_RETENTION (lib/db/outbox-pruner.ts). A
-- finished row's "nextAttemptAt" is when its last outcome was written; NotificationDelivery
-- already has this index (0008).
CREATE INDEX "PushDelivery_state_nextAttemptAt_idx" ON "PushDelivery"("state", "nextAttemptAt");
