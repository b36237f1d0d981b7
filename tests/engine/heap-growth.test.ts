import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../lib/config/settings';

function peakOldGenerationMb(percent: number): number {
  const out = spawnSync(process.execPath, ['--import', 'tsx', 'tests/fixtures/runtime/heap-growth-probe.mts', String(percent)], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`probe failed: ${out.stderr}`);
  return (JSON.parse(out.stdout) as { peakOldMb: number }).peakOldMb;
}

describe('heap growth bound (SWITCHBOARD_HEAP_GROWTH_PERCENT)', () => {
  it('keeps the old generation far below what V8 allows by default under promoted garbage', () => {
    const v8Default = peakOldGenerationMb(0);
    const bounded = peakOldGenerationMb(100);
    // ~370 MB vs ~200 MB on the development machine; the live set is ~40 MB in both.
    expect(bounded).toBeLessThan(v8Default * 0.7);
  }, 60_000);

  it('defaults to 100 and rejects values that are not a whole number up to 400', () => {
    expect(loadSettings({ NODE_ENV: 'test' }).heapGrowthPercent).toBe(100);
    expect(loadSettings({ NODE_ENV: 'test', SWITCHBOARD_HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent).toBe(0);
    expect(() => loadSettings({ NODE_ENV: 'test', SWITCHBOARD_HEAP_GROWTH_PERCENT: '1.5' })).toThrow(
      'SWITCHBOARD_HEAP_GROWTH_PERCENT: SWITCHBOARD_HEAP_GROWTH_PERCENT must be a whole number from 0 to 400',
    );
    expect(() => loadSettings({ NODE_ENV: 'test', SWITCHBOARD_HEAP_GROWTH_PERCENT: '500' })).toThrow('from 0 to 400');
  });
});
