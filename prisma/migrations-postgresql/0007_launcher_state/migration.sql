-- PostgreSQL twin of prisma/migrations/0007_launcher_state.
-- Launcher state that must survive a restart (issue 14).

-- CreateTable: a process session id per (agent, owner, context), least recently used dropped.
CREATE TABLE "LauncherSession" (
    "agentSlug" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "contextId" TEXT NOT NULL,
    "sessionId" TEXT,
    "usedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LauncherSession_pkey" PRIMARY KEY ("agentSlug", "owner", "contextId")
);

-- CreateIndex
CREATE INDEX "LauncherSession_agentSlug_usedAt_idx" ON "LauncherSession"("agentSlug", "usedAt");

-- CreateTable: every launched process group, recorded before its turn starts, removed once reaped.
CREATE TABLE "LaunchedGroup" (
    "pgid" INTEGER NOT NULL,
    "startTime" TEXT NOT NULL,
    "bootId" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "hubPid" INTEGER NOT NULL,
    "hubStartTime" TEXT NOT NULL,
    "agentSlug" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "killGraceMs" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LaunchedGroup_pkey" PRIMARY KEY ("pgid", "startTime", "bootId")
);
