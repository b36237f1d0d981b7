import { describe, expect, it } from 'vitest';
import { CLIENT_TIMEOUT_FLOOR_SECONDS, timeoutFloorWarning, timeoutHint } from './timeout-floor';

describe('the client timeout floor', () => {
  it('is 10 s: two of Hermes keepalive intervals', () => {
    expect(CLIENT_TIMEOUT_FLOOR_SECONDS).toBe(10);
  });

  it('warns below it, never at or above it, nor without a value', () => {
    expect(timeoutFloorWarning(3)).toMatch(/client timeout 3 s is below the 10 s floor/);
    expect(timeoutFloorWarning(10)).toBeNull();
    expect(timeoutFloorWarning(undefined)).toBeNull();
  });

  it('gives a form field the warning for a low value, else its own hint', () => {
    expect(timeoutHint('3', 'default hint')).toMatch(/below the 10 s floor/);
    expect(timeoutHint('', 'default hint')).toBe('default hint');
    expect(timeoutHint('30', 'default hint')).toBe('default hint');
  });
});
