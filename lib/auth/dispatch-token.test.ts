import { describe, expect, it } from 'vitest';
import { issueDispatchToken, verifyDispatchToken } from './dispatch-token';

// The signing key derives from the cluster's secret key (read lazily, on the first token).
process.env.SWITCHBOARD_SECRET_KEY = 'unit-test-secret-key-0123456789abcdef';

describe('dispatch tokens', () => {
  it('name their task until they expire', () => {
    const token = issueDispatchToken('task-1', 1_000, 5_000);
    expect(verifyDispatchToken(token, 5_500)).toBe('task-1');
    expect(verifyDispatchToken(token, 6_001)).toBeNull();
  });

  it('refuse another task id, a changed expiry or a forged signature', () => {
    const [prefix, , expires, signature] = issueDispatchToken('task-1', 1_000, 5_000).split('.');
    expect(verifyDispatchToken(`${prefix}.task-2.${expires}.${signature}`, 5_500)).toBeNull();
    expect(verifyDispatchToken(`${prefix}.task-1.${Number(expires) + 1}.${signature}`, 5_500)).toBeNull();
    expect(verifyDispatchToken(`${prefix}.task-1.${expires}.${signature}x`, 5_500)).toBeNull();
    expect(verifyDispatchToken('sbd1.task-1', 5_500)).toBeNull();
  });
});
