/**
 * What a launched agent gets in its environment to delegate through its hub (docs/launchers.md):
 * where to dispatch, a token good only for dispatching children of its task, and its task id.
 */
import { issueDispatchToken } from './dispatch-token';
import { getSettings, hubBaseUrl } from '../config/settings';

export function delegationEnv(taskId: string): Record<string, string> {
  const s = getSettings();
  return {
    SWITCHBOARD_DISPATCH_URL: `${hubBaseUrl(s)}/api/dispatch`,
    SWITCHBOARD_DISPATCH_TOKEN: issueDispatchToken(taskId, s.responseWindowMs + s.lateResultGraceMs),
    SWITCHBOARD_TASK_ID: taskId,
  };
}
