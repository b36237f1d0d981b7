-- PostgreSQL twin of prisma/migrations/0001_init (same tables, columns, keys and indexes).
-- Types as Prisma maps schema.prisma for postgresql: DateTime → TIMESTAMP(3) (UTC), Int → INTEGER,
-- Float → DOUBLE PRECISION, autoincrement → SERIAL.

-- CreateTable
CREATE TABLE "Task" (
    "id" TEXT NOT NULL,
    "contextId" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "agentSlug" TEXT,
    "peerName" TEXT,
    "peerUrl" TEXT,
    "remoteTaskId" TEXT,
    "state" TEXT NOT NULL,
    "statusMessage" TEXT,
    "requestText" TEXT NOT NULL DEFAULT '',
    "resultText" TEXT NOT NULL DEFAULT '',
    "detached" BOOLEAN NOT NULL DEFAULT false,
    "detachedAt" TIMESTAMP(3),
    "endReason" TEXT,
    "lastSeq" INTEGER NOT NULL DEFAULT 0,
    "metadata" TEXT,
    "follow" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" TIMESTAMP(3),

    CONSTRAINT "Task_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TaskEvent" (
    "id" SERIAL NOT NULL,
    "taskId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "state" TEXT,
    "payload" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TaskEvent_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "TaskEvent_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Message" (
    "id" SERIAL NOT NULL,
    "taskId" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "parts" TEXT NOT NULL,
    "metadata" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Message_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "Message_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Artifact" (
    "taskId" TEXT NOT NULL,
    "artifactId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT,
    "description" TEXT,
    "parts" TEXT NOT NULL,
    "metadata" TEXT,

    CONSTRAINT "Artifact_pkey" PRIMARY KEY ("taskId", "artifactId"),
    CONSTRAINT "Artifact_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Peer" (
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "normalizedUrl" TEXT NOT NULL,
    "authType" TEXT NOT NULL DEFAULT 'none',
    "authSecret" TEXT,
    "authHeader" TEXT,
    "headers" TEXT,
    "timeoutSeconds" DOUBLE PRECISION,
    "notes" TEXT,
    "source" TEXT NOT NULL DEFAULT 'api',
    "card" TEXT,
    "protocolVersion" TEXT,
    "endpointUrl" TEXT,
    "cardFetchedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Peer_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "PushConfig" (
    "taskId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "token" TEXT,
    "authentication" TEXT,
    "version" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PushConfig_pkey" PRIMARY KEY ("taskId", "id"),
    CONSTRAINT "PushConfig_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'agent',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Task_createdAt_idx" ON "Task"("createdAt");
CREATE INDEX "Task_state_createdAt_idx" ON "Task"("state", "createdAt");
CREATE INDEX "Task_direction_createdAt_idx" ON "Task"("direction", "createdAt");
CREATE INDEX "Task_contextId_idx" ON "Task"("contextId");
CREATE UNIQUE INDEX "TaskEvent_taskId_seq_key" ON "TaskEvent"("taskId", "seq");
CREATE INDEX "Message_taskId_id_idx" ON "Message"("taskId", "id");
CREATE UNIQUE INDEX "Peer_normalizedUrl_key" ON "Peer"("normalizedUrl");
CREATE UNIQUE INDEX "ApiKey_hash_key" ON "ApiKey"("hash");
