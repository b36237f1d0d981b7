import { describe, expect, it } from 'vitest';
import { NotificationRuleSchema } from '../config/notification-rules';
import type { TaskChange } from '../events/hub';
import type { TaskRecord } from '../db/task-records';
import { triggersFor } from './triggers';

const rule = (over: Record<string, unknown>) => NotificationRuleSchema.parse({ name: 'r', url: 'https://hooks.example.com/x', ...over });

function change(task: Partial<TaskRecord>, state: string, seq = 7): TaskChange {
  const record = { id: 't', direction: 'outbound', detached: false, peerName: 'research', state, ...task } as TaskRecord;
  return { task: record, events: [{ taskId: 't', seq, type: 'status', state: state as TaskRecord['state'], payload: {}, at: '' }] };
}

describe('notification triggers', () => {
  it('fire once per rule per triggering event, naming every matched event', () => {
    const rules = [rule({ name: 'all', on: ['task-failed', 'detached-task-ended', 'outbound-ended'] })];
    expect(triggersFor(change({ detached: true }, 'failed'), rules)).toEqual([{ rule: rules[0], events: ['task-failed', 'detached-task-ended', 'outbound-ended'], seq: 7 }]);
  });

  it('outbound-ended honours the peers filter; inbound tasks never match it', () => {
    const rules = [rule({ on: ['outbound-ended'], peers: ['other'] })];
    expect(triggersFor(change({}, 'completed'), rules)).toEqual([]);
    expect(triggersFor(change({ peerName: 'other' }, 'completed'), rules)).toHaveLength(1);
    expect(triggersFor(change({ direction: 'inbound', peerName: null }, 'completed'), [rule({ on: ['outbound-ended'] })])).toEqual([]);
  });

  it('input-required fires on the question, nothing fires while working', () => {
    const rules = [rule({ on: ['input-required', 'task-failed'] })];
    expect(triggersFor(change({}, 'input-required'), rules)[0].events).toEqual(['input-required']);
    expect(triggersFor(change({}, 'working'), rules)).toEqual([]);
  });

  it('a peers filter without outbound-ended is a config error naming the key', () => {
    const parsed = NotificationRuleSchema.safeParse({ name: 'r', url: 'https://h.example.com', on: ['task-failed'], peers: ['x'] });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0].path).toEqual(['peers']);
  });
});
