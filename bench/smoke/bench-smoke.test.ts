/**
 * The benchmark suite still runs: `npm run bench -- --quick` against this checkout's
 * test build must finish and write a results file holding every scenario with its table and
 * targets. Timings are not asserted here — they belong in docs/benchmarks.md, not in a test.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { distDir } from '../../tests/support/app-server';
import { SCENARIOS } from '../lib/options';

interface Results {
  mode: string;
  versions: Record<string, string>;
  scenarios: { id: string; table: string[][]; targets: { name: string; value: string; met: boolean }[] }[];
}

describe('npm run bench -- --quick', () => {
  it('runs every scenario and writes a results file', () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-bench-smoke-')), 'results.json');
    const run = spawnSync(process.execPath, ['bench/run.mjs', '--quick', '--build-if-missing', '--dist', distDir(), '--out', out], {
      encoding: 'utf8',
      timeout: 15 * 60_000,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`.slice(-4000)).toBe(0);
    const results = JSON.parse(fs.readFileSync(out, 'utf8')) as Results;
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
    expect(results.mode).toBe('quick');
    expect(results.versions.next).toBeTruthy();
    expect(results.scenarios.map((s) => s.id).sort()).toEqual([...SCENARIOS].sort());
    for (const scenario of results.scenarios) {
      expect(scenario.table.length, scenario.id).toBeGreaterThan(1);
      expect(scenario.targets.length, scenario.id).toBeGreaterThan(0);
    }
  }, 16 * 60_000);
});
