/**
 * The bench smoke (`npm run bench:smoke`): runs `npm run bench -- --quick` once against the
 * test build and checks the results file. Out of `npm test`, which must not carry a benchmark.
 */
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.mts';

export default defineConfig({ ...base, test: { ...base.test, include: ['bench/smoke/**/*.test.ts'] } });
