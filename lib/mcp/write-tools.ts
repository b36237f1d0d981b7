/**
 * The tools that change things: dispatch, reply, cancel (operator only). They go through the
 * same paths as the dashboard and the CLI: dispatchTask (recorded, followed, shown live) and
 * cancelAsOperator (the one cancel).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { dispatchTask, type DispatchRequest } from '../engine';
import { cancelAsOperator } from '../dashboard/cancel';
import type { AuditActor } from '../audit/audit-log';
import { MAX_TEXT_CHARS, SecondsSchema, TaskIdSchema } from './limits';
import { followForCall, viewText, type ToolExtra } from './follow-call';
import { START, TaskViewShape } from './task-view';
import { answering, structured } from './tool-result';
import { dispatchTargetOf } from './agent-targets';

const TextSchema = z.string().min(1, 'text: expected the text to send').max(MAX_TEXT_CHARS, `text: at most ${MAX_TEXT_CHARS} characters`);
const ContextIdSchema = z
  .string()
  .max(256, 'contextId: at most 256 characters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'contextId: letters, digits, ".", "_", ":", "-", starting with a letter or digit');

/** Sends, then holds the call until the turn ends or wait_seconds pass; the view says what next. */
async function sendAndFollow(request: DispatchRequest, actor: AuditActor, waitSeconds: number | undefined, extra: ToolExtra) {
  const { taskId } = await dispatchTask(request, { actor });
  const view = await followForCall(taskId, extra, { since: START, seconds: waitSeconds, until: 'turn-end' });
  return structured(view, viewText(view));
}

function registerDispatch(server: McpServer, actor: AuditActor) {
  server.registerTool(
    'dispatch',
    {
      title: 'Dispatch a task',
      description:
        'Send work to an agent: its target from list_agents (a served agent or peer by name, or an agent URL). Returns when the task ends, asks for input, or after wait_seconds, with the task id: a task still running is not lost; follow it with wait.',
      inputSchema: {
        target: z.string().min(1, 'target: expected an agent or peer name or an agent URL (see list_agents)').max(2048, 'target: at most 2048 characters'),
        text: TextSchema,
        contextId: ContextIdSchema.optional().describe('continue this conversation'),
        taskId: TaskIdSchema.optional().describe('answer this task that waits for input (same as reply)'),
        wait_seconds: SecondsSchema('wait_seconds'),
      },
      outputSchema: TaskViewShape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    ({ target, text, contextId, taskId, wait_seconds }, extra) =>
      answering('dispatch', async () => sendAndFollow({ ...(await dispatchTargetOf(target)), text, contextId, taskId, mode: 'streaming' }, actor, wait_seconds, extra)),
  );
}

function registerReply(server: McpServer, actor: AuditActor) {
  server.registerTool(
    'reply',
    {
      title: 'Answer a task',
      description: 'Answer a dispatched task that asks for input (needsInput), in the same task; then behaves like dispatch.',
      inputSchema: { taskId: TaskIdSchema, text: TextSchema, wait_seconds: SecondsSchema('wait_seconds') },
      outputSchema: TaskViewShape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    ({ taskId, text, wait_seconds }, extra) => answering('reply', () => sendAndFollow({ taskId, text, mode: 'streaming' }, actor, wait_seconds, extra)),
  );
}

function registerCancel(server: McpServer, actor: AuditActor) {
  server.registerTool(
    'cancel',
    {
      title: 'Cancel a task',
      description: 'Cancel a running task (an outbound one at its peer too).',
      inputSchema: { taskId: TaskIdSchema },
      outputSchema: { taskId: z.string(), state: z.string(), endReason: z.string().nullable() },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    ({ taskId }) =>
      answering('cancel', async () => {
        const { state, endReason } = await cancelAsOperator(taskId, actor, { door: 'mcp' });
        return structured({ taskId, state, endReason }, `task ${taskId} is ${state}${endReason ? ` (${endReason})` : ''}`);
      }),
  );
}

/** `actor`: the operator calling, as the audit log records it (door `mcp`). */
export function registerWriteTools(server: McpServer, actor: AuditActor): void {
  registerDispatch(server, actor);
  registerReply(server, actor);
  registerCancel(server, actor);
}
