/**
 * SWITCHBOARD_HEAP_GROWTH_PERCENT reaches V8 (decision 14): after a full collection V8 sizes the
 * old generation as the live heap × (1 + percent/100), which its GC trace prints as the factor of
 * each "Limit:" line. That is deterministic; what the bound saves in memory depends on the
 * machine and is measured in bench/micro/heap-growth.mts.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../lib/config/settings';
import { startApp, type AppServer } from '../support/app-server';

/** The growth factors of the old-generation limits V8 set, from its GC trace. */
const limitFactors = (trace: string) => [...trace.matchAll(/\[HeapController\] Limit: .*\((\d+\.\d)\)/g)].map((m) => Number(m[1]));

function factorsAfterApplying(percent: number): number[] {
  const out = spawnSync(process.execPath, ['--import', 'tsx', 'tests/fixtures/runtime/heap-growth-limit.mts', String(percent)], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`probe failed: ${out.stderr}`);
  return limitFactors(out.stdout);
}

const apps: AppServer[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop()));
});

describe('heap growth bound (SWITCHBOARD_HEAP_GROWTH_PERCENT)', () => {
  it.each([
    [50, 1.5],
    [250, 3.5],
  ])('applyHeapGrowth(%i) makes V8 size the old generation at %s× the live heap, from a collection at once', (percent, factor) => {
    const factors = factorsAfterApplying(percent);
    expect(factors.length).toBeGreaterThan(0);
    expect(new Set(factors)).toEqual(new Set([factor]));
  }, 60_000);

  it('0 leaves V8 its own growth: nothing is set and no collection is forced', () => {
    expect(factorsAfterApplying(0)).toEqual([]);
  }, 60_000);

  it('boot applies the configured percent to the server process', async () => {
    // 400% is a factor of 5.0, above any V8 picks by itself (at most 4.0), so only the setting makes it.
    const app = await startApp({ SWITCHBOARD_HEAP_GROWTH_PERCENT: '400' }, { nodeArgs: ['--trace-gc-verbose'] });
    apps.push(app);
    expect(limitFactors(app.logs())).toContain(5);
  });

  it('boot refuses a bad value, naming the variable and what it accepts', async () => {
    await expect(startApp({ SWITCHBOARD_HEAP_GROWTH_PERCENT: '12.5' })).rejects.toThrow(/SWITCHBOARD_HEAP_GROWTH_PERCENT must be a whole number from 0 to 400/);
  });

  it('defaults to 100 and rejects values that are not a whole number up to 400', () => {
    expect(loadSettings({ NODE_ENV: 'test' }).heapGrowthPercent).toBe(100);
    expect(loadSettings({ NODE_ENV: 'test', SWITCHBOARD_HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent).toBe(0);
    expect(() => loadSettings({ NODE_ENV: 'test', SWITCHBOARD_HEAP_GROWTH_PERCENT: '1.5' })).toThrow(
      'SWITCHBOARD_HEAP_GROWTH_PERCENT: SWITCHBOARD_HEAP_GROWTH_PERCENT must be a whole number from 0 to 400',
    );
    expect(() => loadSettings({ NODE_ENV: 'test', SWITCHBOARD_HEAP_GROWTH_PERCENT: '500' })).toThrow('from 0 to 400');
  });
});
