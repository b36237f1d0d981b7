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
