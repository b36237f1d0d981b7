import { describe, expect, it } from 'vitest';
import { loadSettings } from './settings';

describe('SWITCHBOARD_OUTBOX_RETENTION', () => {
  it('defaults to 7 days and takes seconds', () => {
    expect(loadSettings({ NODE_ENV: 'test' }).outboxRetentionMs).toBe(7 * 86_400_000);
    expect(loadSettings({ NODE_ENV: 'test', SWITCHBOARD_OUTBOX_RETENTION: '1.5' }).outboxRetentionMs).toBe(1_500);
  });

  it('refuses zero, words and more than a year, naming the setting', () => {
    for (const bad of ['0', 'week', String(367 * 86_400)]) expect(() => loadSettings({ NODE_ENV: 'test', SWITCHBOARD_OUTBOX_RETENTION: bad })).toThrow(/SWITCHBOARD_OUTBOX_RETENTION: SWITCHBOARD_OUTBOX_RETENTION must be a positive number of seconds/);
  });
});

describe('SWITCHBOARD_TASK_RETENTION', () => {
  it('is unset by default (tasks are kept forever) and takes seconds', () => {
    expect(loadSettings({ NODE_ENV: 'test' }).taskRetentionMs).toBeUndefined();
    expect(loadSettings({ NODE_ENV: 'test', SWITCHBOARD_TASK_RETENTION: '' }).taskRetentionMs).toBeUndefined();
    expect(loadSettings({ NODE_ENV: 'test', SWITCHBOARD_TASK_RETENTION: '2592000' }).taskRetentionMs).toBe(30 * 86_400_000);
    expect(loadSettings({ NODE_ENV: 'test', SWITCHBOARD_TASK_RETENTION: '0.5' }).taskRetentionMs).toBe(500);
  });

  it('refuses zero, negatives, words and more than ten years, naming the setting', () => {
    for (const bad of ['0', '-5', '30d', String(3661 * 86_400)]) {
      expect(() => loadSettings({ NODE_ENV: 'test', SWITCHBOARD_TASK_RETENTION: bad })).toThrow(/SWITCHBOARD_TASK_RETENTION: SWITCHBOARD_TASK_RETENTION must be a positive number of seconds \(at most 316224000\)/);
    }
  });
});
