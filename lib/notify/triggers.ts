/**
 * Which notification rules a committed task change fires (pure). A trigger is one task event: a
 * terminal status (the task ended) or an input-required status. Each rule fires at most once
 * per trigger, naming every one of its events that matched.
 */
import type { TaskChange } from '../events/hub';
import type { NotificationEvent, NotificationRule } from '../config/notification-rules';
import { isTerminalState } from '../protocol/types';

export interface Trigger {
  rule: NotificationRule;
  events: NotificationEvent[];
  /** The seq of the status event that fired it: with the rule and task, the delivery's identity. */
  seq: number;
}

function matchedEvents(rule: NotificationRule, change: TaskChange, state: string): NotificationEvent[] {
  const task = change.task;
  const ended = isTerminalState(state);
  const matches: Record<NotificationEvent, boolean> = {
    'detached-task-ended': ended && task.detached,
    'task-failed': ended && state === 'failed',
    'outbound-ended': ended && task.direction === 'outbound' && (!rule.peers || (task.peerName !== null && rule.peers.includes(task.peerName))),
    'input-required': state === 'input-required',
  };
  return rule.on.filter((event) => matches[event]);
}

export function triggersFor(change: TaskChange, rules: readonly NotificationRule[]): Trigger[] {
  const status = [...change.events].reverse().find((e) => e.type === 'status' && e.state && (isTerminalState(e.state) || e.state === 'input-required'));
  if (!status?.state) return [];
  const triggers: Trigger[] = [];
  for (const rule of rules) {
    const events = matchedEvents(rule, change, status.state);
    if (events.length) triggers.push({ rule, events, seq: status.seq });
  }
  return triggers;
}

export function deliveryId(rule: string, taskId: string, seq: number): string {
  return `${rule}:${taskId}:${seq}`;
}
