// npm start: generate the Prisma client and build the app if this checkout has not yet, then
// serve on HOST:PORT (127.0.0.1:3000 by default). Migrations are applied by the server itself
// at start-up (instrumentation.ts), so a fresh clone needs only `npm install && npm start`.
import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';

function run(cmd, args) {
  const result = spawnSync(cmd, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!fs.existsSync('lib/db/generated/client.ts')) run(process.execPath, ['scripts/prisma-generate.mjs']);
if (!fs.existsSync('.next/BUILD_ID') || process.env.SWITCHBOARD_REBUILD === '1') {
  run(process.execPath, ['node_modules/next/dist/bin/next', 'build']);
}

const host = process.env.HOST || '127.0.0.1';
const port = process.env.PORT || '3000';
// We handle SIGTERM ourselves (drain, then end the rest through the terminal claim).
const env = { ...process.env, NEXT_MANUAL_SIG_HANDLE: 'true', NEXT_TELEMETRY_DISABLED: '1' };
const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-H', host, '-p', port], {
  stdio: 'inherit',
  env,
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
