/**
 * The detach scenario's knobs (10,000 detached tasks): `--detached N` is bounded and
 * names itself when wrong, `--no-quiet-wait` skips the wait for a quiet machine, the work
 * outlasts the burst, and the /api/health summary counts only the probes sent in its window.
 */
import { describe, expect, it } from 'vitest';
import { detachedCount, parseOptions } from '../../bench/lib/options';
import { BURST_CONNECTIONS, MAX_DETACHED, summarise, workSecondsFor } from '../../bench/lib/detach-burst';

describe('bench detach options', () => {
  it('takes --detached from 1 to 10,000 and refuses anything else, naming the option', () => {
    expect(MAX_DETACHED).toBe(10_000);
    expect(parseOptions(['--detached', '10000']).detached).toBe(10_000);
    expect(parseOptions(['--detached', '1']).detached).toBe(1);
    expect(parseOptions([]).detached).toBeUndefined();
    for (const bad of ['0', '10001', '2.5', 'many']) expect(() => detachedCount(bad)).toThrow(/^--detached: expected a whole number from 1 to 10000/);
  });

  it('waits for a quiet machine unless --no-quiet-wait', () => {
    expect(parseOptions([]).waitQuiet).toBe(true);
    expect(parseOptions(['--no-quiet-wait']).waitQuiet).toBe(false);
  });

  it('gives tasks tens of seconds of work, more than the burst needs at one send per connection per second', () => {
    expect(workSecondsFor(10_000, false)).toBe(60);
    expect(workSecondsFor(10_000, false)).toBeGreaterThan(10_000 / BURST_CONNECTIONS);
    expect(workSecondsFor(100, true)).toBe(4);
  });

  it('summarises the health probes sent inside the window only', () => {
    const samples = [
      { at: 5, ms: 900, ok: true },
      ...Array.from({ length: 99 }, (_, i) => ({ at: 10 + i, ms: 2, ok: true })),
      { at: 50, ms: 70, ok: false },
      { at: 500, ms: 800, ok: true },
    ];
    const s = summarise(samples, 10, 200);
    expect(s).toEqual({ n: 100, p50: 2, p99: 2, max: 70, failed: 1 });
    expect(summarise(samples, 1000, 2000).n).toBe(0);
  });
});
