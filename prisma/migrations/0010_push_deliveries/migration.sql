-- Push notifications as durable, owned work (issue 15): one row per push config and triggering
-- task event, written in the transaction of the task change that causes it (lib/db/change-outbox.ts).
-- "owner" is the instance that sends it; its lease is that instance's row in
-- "_switchboard_instances" (PostgreSQL), and a survivor takes the row over once that row is gone.
-- "attemptStartedAt" is set while an attempt is in flight: set on a row taken over, the outcome
-- of that attempt is unknown (docs/decisions.md: such a delivery is sent again, same id).
CREATE TABLE "PushDelivery" (
    "taskId" TEXT NOT NULL,
    "configId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "owner" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attemptStartedAt" DATETIME,
    "lastError" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" DATETIME,

    PRIMARY KEY ("taskId", "configId", "seq"),
    CONSTRAINT "PushDelivery_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE INDEX "PushDelivery_state_owner_idx" ON "PushDelivery"("state", "owner");
