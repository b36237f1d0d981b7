import { describe, expect, it } from 'vitest';
import type { AgentTurn } from '../agent-runner';
import { durationMs, KNOB_TEXT_PREFIX, knobTokens, namedNumber } from './turn-input';

const turn = (text: string, metadata?: Record<string, unknown>) =>
  ({ message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text }], ...(metadata ? { metadata } : {}) } }) as unknown as AgentTurn;

describe('built-in agent knobs (ReDoS)', () => {
  it('reads the knobs people write', () => {
    expect(durationMs(turn('work 3s chunks 20 size 100'), 0)).toBe(3000);
    expect(durationMs(turn('work 1.5 m'), 0)).toBe(90_000);
    expect(durationMs(turn('work 250ms'), 0)).toBe(250);
    expect(durationMs(turn('chunks 20 size 100'), 7)).toBe(7);
    expect(namedNumber(turn('work 3s chunks 20 size 100'), 'chunks', 1)).toBe(20);
    expect(namedNumber(turn('chunks: 4, size=64'), 'size', 1)).toBe(64);
    expect(namedNumber(turn('STEPMS 10'), 'stepMs', 1)).toBe(10);
    expect(namedNumber(turn('xchunks 9'), 'chunks', 1)).toBe(1);
    expect(namedNumber(turn('chunks 99', { chunks: 3 }), 'chunks', 1)).toBe(3);
  });

  it('reads only a bounded prefix of the text', () => {
    const late = `${'x '.repeat(KNOB_TEXT_PREFIX)} chunks 20 work 9s`;
    expect(namedNumber(turn(late), 'chunks', 5)).toBe(5);
    expect(durationMs(turn(late), 1)).toBe(1);
  });

  it('scans a megabyte of digits in one pass over the prefix', () => {
    const digits = '9'.repeat(1024 * 1024);
    expect(knobTokens(digits)).toEqual([{ kind: 'number', text: '9'.repeat(KNOB_TEXT_PREFIX) }]);
    expect(durationMs(turn(`${digits}s`), 5)).toBe(5);
    expect(namedNumber(turn(`chunks ${digits}`), 'chunks', 5)).toBe(Infinity);
  });
});
