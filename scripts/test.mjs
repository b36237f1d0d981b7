// npm test: build the app as it is now, then run the unit/integration suite (Vitest, real
// servers and databases) and the end-to-end suite (Playwright in Debian's Chromium).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

function step(name, cmd, args, env = {}) {
  console.log(`\n=== ${name} ===`);
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env } });
  return result.status === 0;
}

// The e2e suite drives Debian's Chromium; install it when we can (root on Debian), else say how.
function ensureChromium() {
  if (fs.existsSync('/usr/bin/chromium')) return true;
  if (process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get')) {
    return step('install chromium', 'bash', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium']);
  }
  console.error('Chromium is missing: install Debian\'s package (sudo apt-get install -y chromium) for the e2e tests.');
  return false;
}

/** One closing line over both suites: "N passed, N failed" (skipped are a defect here). */
function summaryLine() {
  const read = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null);
  const v = read('test-results/vitest.json');
  const p = read('test-results/playwright.json');
  const passed = (v?.numPassedTests ?? 0) + (p?.stats?.expected ?? 0) + (p?.stats?.flaky ?? 0);
  const failed = (v?.numFailedTests ?? 0) + (p?.stats?.unexpected ?? 0);
  return `${passed} passed, ${failed} failed`;
}

const node = process.execPath;
const ok =
  step('prisma generate', node, ['scripts/prisma-generate.mjs']) &&
  step('build', node, ['node_modules/next/dist/bin/next', 'build']);
if (!ok) process.exit(1);

const vitestRan = step('vitest', node, ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/vitest.json'], { SWITCHBOARD_SKIP_BUILD: '1' });
// The report decides too: an exit code can be replaced by a library's exit hook.
const vitestReport = fs.existsSync('test-results/vitest.json') ? JSON.parse(fs.readFileSync('test-results/vitest.json', 'utf8')) : null;
const unit = vitestRan && vitestReport?.success === true && vitestReport.numFailedTests === 0;
const e2e = ensureChromium() && step('playwright', node, ['node_modules/@playwright/test/cli.js', 'test']);
console.log(`\nvitest: ${unit ? 'passed' : 'FAILED'}; playwright: ${e2e ? 'passed' : 'FAILED'}`);
console.log(summaryLine());
process.exit(unit && e2e ? 0 : 1);
