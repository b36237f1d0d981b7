-- PostgreSQL twin of prisma/migrations/0009_task_trace_parent.
-- W3C trace context of the task (JSON {traceparent, tracestate}): the task span's own context
-- when tracing is on, else the caller's; outbound calls send it and a resumed follow continues it.
ALTER TABLE "Task" ADD COLUMN "traceContext" TEXT;
-- The delegation graph: the local task this one was dispatched for (outbound), or the task of a
-- calling Switchboard that said so in the message metadata (inbound; then a remote id).
ALTER TABLE "Task" ADD COLUMN "parentTaskId" TEXT;
CREATE INDEX "Task_parentTaskId_idx" ON "Task"("parentTaskId");
