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

describe('SWITCHBOARD_SSE_KEEPALIVE (issue 22: every stream hears from us at least every 4 s)', () => {
  it('defaults to 2 s and may be lowered', () => {
    expect(loadSettings({ NODE_ENV: 'test' }).sseKeepaliveMs).toBe(2_000);
    expect(loadSettings({ NODE_ENV: 'test', SWITCHBOARD_SSE_KEEPALIVE: '0.5' }).sseKeepaliveMs).toBe(500);
  });

  it('refuses more than 4 s, naming the setting', () => {
    expect(() => loadSettings({ NODE_ENV: 'test', SWITCHBOARD_SSE_KEEPALIVE: '5' })).toThrow(/SWITCHBOARD_SSE_KEEPALIVE must be a positive number of seconds \(at most 4\)/);
  });
});
