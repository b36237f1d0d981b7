-- PostgreSQL twin of prisma/migrations/0008_notification_deliveries.
-- Operator notifications (issue 17): a durable outbox and delivery log. One row per rule and
-- triggering task event (the id is derived from both), so a trigger seen twice, or again after
-- a restart, is enqueued once; a row marked delivered is never sent again.
CREATE TABLE "NotificationDelivery" (
    "id" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "rule" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "attemptLog" TEXT NOT NULL DEFAULT '[]',
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" TIMESTAMP(3),

    CONSTRAINT "NotificationDelivery_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "NotificationDelivery_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE INDEX "NotificationDelivery_taskId_createdAt_idx" ON "NotificationDelivery"("taskId", "createdAt");
CREATE INDEX "NotificationDelivery_state_nextAttemptAt_idx" ON "NotificationDelivery"("state", "nextAttemptAt");
