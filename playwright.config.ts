/**
 * End-to-end tests: Debian's Chromium (`apt-get install -y chromium`; `playwright install`
 * cannot download here) against the built app. There is no `webServer`: each worker starts
 * `next start` itself through tests/support/app-server.ts (fresh SQLite file, free port), so a
 * test can restart the server on the same port and database mid-task.
 *
 *   SWITCHBOARD_DIST_DIR=.next-ui npx next build   # once (global setup builds if missing)
 *   SWITCHBOARD_DIST_DIR=.next-ui npx playwright test
 */
import { defineConfig, devices } from '@playwright/test';

const CHROMIUM = process.env.SWITCHBOARD_CHROMIUM || '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  globalSetup: './tests/support/global-setup.ts',
  // One server per worker, and the restart test owns its server: no parallelism.
  workers: 1,
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }], ...(process.env.CI ? [['html', { open: 'never' }] as const] : [])],
  use: {
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 860 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
});
