/**
 * Runs only the launcher tests, without the repository-wide globalSetup (which prepares a
 * database the launchers never touch): `npx vitest run --config lib/launchers/vitest.launchers.config.ts`.
 */
import { defineConfig } from 'vitest/config';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

export default defineConfig({
  root,
  resolve: { alias: { '@': root } },
  test: {
    environment: 'node',
    globals: false,
    include: ['lib/launchers/**/*.test.ts'],
    testTimeout: 30_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
