/**
 * Builds the app once before the suite if this checkout has no build yet (or
 * SWITCHBOARD_TEST_BUILD=1), so protocol tests run against a real `next start`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { distDir } from './app-server';

export default function setup(): void {
  const buildId = path.join(distDir(), 'BUILD_ID');
  if (process.env.SWITCHBOARD_SKIP_BUILD === '1') return;
  if (fs.existsSync(buildId) && process.env.SWITCHBOARD_TEST_BUILD !== '1') return;
  const result = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], {
    stdio: 'inherit',
    env: { ...process.env, SWITCHBOARD_DIST_DIR: distDir(), NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error('next build failed');
}
