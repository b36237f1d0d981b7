import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { sinceArg } from './options';

describe('--since', () => {
  const now = Date.parse('2026-12-01T12:00:00.000Z');
  const since = sinceArg('--since', () => now);

  it('takes an ISO date or time, or a span back from now, as an ISO time', () => {
    expect(since('2026-11-30')).toBe('2026-11-30T00:00:00.000Z');
    expect(since('2026-11-30T08:30:00+02:00')).toBe('2026-11-30T06:30:00.000Z');
    expect(since('90m')).toBe('2026-12-01T10:30:00.000Z');
    expect(since('24h')).toBe('2026-11-30T12:00:00.000Z');
    expect(since('7d')).toBe('2026-11-24T12:00:00.000Z');
  });

  it('refuses anything else, naming the option', () => {
    for (const bad of ['yesterday', '7 days', '2026-13-01', '1w', '']) {
      expect(() => since(bad)).toThrow(InvalidArgumentError);
      expect(() => since(bad)).toThrow(/--since must be an ISO date or time/);
    }
  });
});
