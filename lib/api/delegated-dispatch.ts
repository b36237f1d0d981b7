/**
 * POST /api/dispatch by a launched agent, with the delegation token its hub gave it
 * (lib/auth/dispatch-token.ts). The token names the parent task; the dispatch is recorded as its
 * child, and may only start a new child or answer one of its own children. Anything else, or a
 * parent that has ended, is refused.
 */
import { isDispatchToken, verifyDispatchToken } from '../auth/dispatch-token';
import { apiError } from './responses';
import { findTask } from '../db/task-repo';
import { isTerminalState } from '../protocol/types';
import type { DispatchRequest } from '../engine';

export function dispatchTokenOf(req: Request): string | null {
  const header = req.headers.get('authorization');
  const token = header?.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : null;
  return token && isDispatchToken(token) ? token : null;
}

/** The request as the token allows it (parentTaskId set), or the refusal. */
export async function delegatedRequest(token: string, body: DispatchRequest): Promise<{ request: DispatchRequest } | { response: Response }> {
  const parentTaskId = verifyDispatchToken(token);
  if (!parentTaskId) return { response: apiError(401, 'unauthenticated', 'the dispatch token is invalid or expired') };
  const parent = await findTask(parentTaskId);
  if (!parent || isTerminalState(parent.state)) return { response: apiError(403, 'forbidden', `task ${parentTaskId} has ended; its dispatch token is no longer valid`) };
  if (body.parentTaskId && body.parentTaskId !== parentTaskId) {
    return { response: apiError(403, 'forbidden', `parentTaskId: this token dispatches only for task ${parentTaskId}`, 'parentTaskId') };
  }
  if (body.taskId) {
    const child = await findTask(body.taskId);
    if (child?.parentTaskId !== parentTaskId) return { response: apiError(403, 'forbidden', `taskId: task ${body.taskId} is not a child of task ${parentTaskId}`, 'taskId') };
  }
  return { request: { ...body, parentTaskId } };
}
