/**
 * Who may see a task. Every task-scoped call from an adapter carries one of these, and the
 * reads behind them filter by it, so an unscoped read from the A2A surface does not type-check.
 *
 * - A `CallerScope` is an A2A caller at one agent's route: it reaches only that agent's
 *   inbound tasks created by the same owner (the API key's id; "anonymous" in open mode).
 *   Anything else answers exactly as a task that does not exist, so ids cannot be probed.
 * - The `OperatorScope` (dashboard API, scripts) reaches every task in both directions.
 */
import type { TaskRecord } from './task-records';

/** The owner every caller shares while no API key exists (open mode). */
export const ANONYMOUS_OWNER = 'anonymous';
/** The owner of tasks the built-in `self` peer creates once API keys exist. */
export const SELF_OWNER = 'self';

export interface CallerScope {
  readonly kind: 'caller';
  readonly agentSlug: string;
  readonly owner: string;
  readonly direction: 'inbound';
}

export interface OperatorScope {
  readonly kind: 'operator';
  /** Who acts, for reasons and logs ("operator", "viewer-token"…). */
  readonly operator: string;
}

export type TaskScope = CallerScope | OperatorScope;

export function callerScope(agentSlug: string, owner: string): CallerScope {
  return { kind: 'caller', agentSlug, owner, direction: 'inbound' };
}

export function operatorScope(operator: string): OperatorScope {
  return { kind: 'operator', operator };
}

export function inScope(task: Pick<TaskRecord, 'direction' | 'agentSlug' | 'owner'>, scope: TaskScope): boolean {
  if (scope.kind === 'operator') return true;
  return task.direction === scope.direction && task.agentSlug === scope.agentSlug && task.owner === scope.owner;
}
